import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Naijá: travel eSIMs: the eSIM tab (new or top-up) and the delivered eSIM on the result screen (issue 32). */
export const strings: Translation<typeof en> = {
  esim: {
    mode: 'New eSIM abi top-up',
    new: 'Fresh eSIM',
    topUp: 'Add data to my eSIM',
    destination: 'Where you dey go',
    region_europe: 'Europe ({{count}} kontri)',
    region_africa: 'Africa ({{count}} kontri)',
    region_global: 'All over the world ({{count}} kontri)',
    destinationRequired: 'Choose where you dey travel go.',
    plan: 'Data plan',
    planRequired: 'Choose data plan.',
    esimRequired: 'Choose one of your eSIM.',
    phoneHelp: 'For receipt. The eSIM go work for your phone for abroad; your Naija line no go change.',
    compatible: 'My phone fit use eSIM and dem no lock am to one network',
    compatibleHelp:
      'You no sure? Dial *#06#: if EID (32 numbers) show, your phone fit use eSIM. Most phones wey dem make before 2019 and plenty cheap phones no fit.',
    compatibleRequired: 'First check say your phone fit use eSIM: once you install eSIM, you no fit move am go another phone.',
    days_one: '{{count}} day',
    days_other: '{{count}} days',
    which: 'Which eSIM you mean',
    noneYet: 'You never get eSIM wey you fit top up. Buy one first.',
    iccid: 'ICCID',
    scan: 'Scan this QR code for the phone wey go use the eSIM (Settings → Mobile data → Add eSIM).',
    qrAlt: 'QR code wey go install your eSIM',
    manual: 'Or type this activation code by hand:',
    copyCode: 'Copy the code wey go activate am',
    checkUsage: 'Check data wey remain',
    status: {
      not_installed: 'You never install am',
      active: 'E dey work',
      depleted: 'Data don finish',
      expired: 'E don expire',
    },
    used: '{{used}} of {{total}} don use',
    expires: 'E go work reach {{date}}',
  },
};
