import { PhoneBuy } from '../../../../../../web/src/features/buy/PhoneBuy';

/** The data tab: the buy feature's phone form (shared with airtime), with the network's plans. */
export const Screen = () => <PhoneBuy service="data" />;
