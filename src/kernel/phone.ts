/** Nigerian mobile numbers (docs/design.md §11): accept 0XXXXXXXXXX, 234XXXXXXXXXX, +234XXXXXXXXXX; normalise to 11 digits. */
export type Network = 'mtn' | 'airtel' | 'glo' | '9mobile';

const PREFIXES: Record<Network, string[]> = {
  mtn: ['0703', '0704', '07025', '07026', '0706', '0707', '0803', '0806', '0810', '0813', '0814', '0816', '0903', '0906', '0913', '0916'],
  airtel: ['0701', '0708', '0802', '0808', '0812', '0901', '0902', '0904', '0907', '0911', '0912'],
  glo: ['0705', '0805', '0807', '0811', '0815', '0905', '0915'],
  '9mobile': ['0809', '0817', '0818', '0908', '0909'],
};

export function normalizePhone(input: string): string | null {
  const s = input.replace(/[\s-]/g, '');
  let local: string | null = null;
  if (/^0[789]\d{9}$/.test(s)) local = s;
  else if (/^\+?234[789]\d{9}$/.test(s)) local = '0' + s.replace(/^\+?234/, '');
  return local;
}

/** Match 5-digit prefixes before 4-digit ones. */
export function networkOf(localPhone: string): Network | null {
  for (const len of [5, 4]) {
    const p = localPhone.slice(0, len);
    for (const [net, list] of Object.entries(PREFIXES) as [Network, string[]][]) {
      if (list.includes(p)) return net;
    }
  }
  return null;
}

export const NETWORKS: Network[] = ['mtn', 'airtel', 'glo', '9mobile'];
