import { channelSwitches } from './channel-switches';
import { common } from './common';
import { routing } from './routing';
import { catalogue } from './catalogue';
import { layout } from './layout';
import { jobProgress } from './job-progress';
import { warnings } from './warnings';
import { signIn } from './sign-in';
import { purchaseCase } from './purchase-case';
import { profit } from './profit';
import { growth } from './growth';
import { withdrawals } from './withdrawals';
import { exportJobs } from './exports';
import { resellers } from './resellers';
import { audit } from './audit';
import { airtimeCash } from './airtime-cash';
import { levelForms } from './level-forms';
import { broadcastNew } from './broadcast-new';
import { broadcasts } from './broadcasts';
import { transactions } from './transactions';
import { transactionSearch } from './transaction-search';
import { kycQueue } from './kyc-queue';
import { templates } from './templates';
import { planPrices } from './plan-prices';
import { screens } from './screens';
import { customers } from './customers';
import { deadLetters } from './dead-letters';
import { markupPreview } from './markup-preview';
import { supportCustomer } from './support-customer';
import { cannedReplies } from './canned-replies';
import { reports } from './reports';
import { shopCreate } from './shop-create';
import { support } from './support';
import { approvals } from './approvals';
import { customer } from './customer';
import { dashboard } from './dashboard';
import { topUps } from './top-ups';
import { shop } from './shop';
import { operators } from './operators';
import { alertsOnDevice } from './alerts-on-device';

/**
 * The operator console's strings (issue 44), English first: one module per screen or area in this folder,
 * gathered here under `console.`. They load with the console's chunk (app/i18n.ts, loadConsoleStrings) and are added
 * to whichever language is chosen, so an operator reading Hausa sees the console in English until it is translated.
 */
export const enConsole = {
  console: {
    common,
    routing,
    catalogue,
    layout,
    jobProgress,
    warnings,
    signIn,
    purchaseCase,
    profit,
    growth,
    withdrawals,
    exportJobs,
    resellers,
    audit,
    airtimeCash,
    levelForms,
    broadcastNew,
    broadcasts,
    transactions,
    transactionSearch,
    kycQueue,
    templates,
    planPrices,
    screens,
    channelSwitches,
    customers,
    deadLetters,
    markupPreview,
    supportCustomer,
    cannedReplies,
    reports,
    shopCreate,
    support,
    approvals,
    customer,
    dashboard,
    topUps,
    shop,
    operators,
    alertsOnDevice,
  },
};
