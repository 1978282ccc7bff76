/**
 * A User-Agent as people name their device (issue 43): "Chrome" and "Android", never the header itself. Only the
 * common browsers and systems are told apart; anything else is "a browser" on "an unknown device" (the caller words
 * those in the reader's language).
 */
export interface DeviceName {
  browser: string | null;
  os: string | null;
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(A|iOS|e)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bOPiOS\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bUCBrowser\//, 'UC Browser'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bCriOS\//, 'Chrome'],
  [/\bChrom(e|ium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\biPad\b/, 'iPad'],
  [/\b(iPhone|iPod)\b/, 'iPhone'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'Mac'],
  [/\bLinux\b/, 'Linux'],
];

export function deviceName(userAgent: string | null | undefined): DeviceName {
  const ua = userAgent ?? '';
  return {
    browser: BROWSERS.find(([re]) => re.test(ua))?.[1] ?? null,
    os: SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null,
  };
}

/** Version numbers (`Chrome/126.0.6478.122`, `OS 17_4_1`) change with every update of the same browser. */
export const UA_VERSION_PATTERN = '\\d+(?:[._]\\d+)+';

/** The User-Agent without its version numbers: the same browser on the same device after an update. */
export const clientKeyOf = (userAgent: string | null | undefined) => (userAgent ?? '').replace(new RegExp(UA_VERSION_PATTERN, 'g'), '');
