import { PhoneBuy } from '../../PhoneBuy';

/** The data tab: the buy feature's phone form (shared with airtime), with the network's plans. */
export const Screen = () => <PhoneBuy service="data" />;
