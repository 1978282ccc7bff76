/** fast-geoip ships no types: the one function town.ts uses. */
declare module 'fast-geoip' {
  const geoip: { lookup(ip: string): Promise<{ country: string; city: string } | null> };
  export default geoip;
}
