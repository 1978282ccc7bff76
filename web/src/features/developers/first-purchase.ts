/**
 * The first purchase by key as a shell command (issue 45): KEY set to a placeholder made of the newest key's prefix
 * (the secret is never shown again), then curl to the versioned path with the {data} envelope and an Idempotency-Key.
 * test/developers/first-purchase.test.ts runs it against the service with a real key in KEY's place.
 */
export function firstPurchase(origin: string, prefix: string | null, keyLine: string) {
  return [
    `KEY='${prefix ?? 'vtu_sk_test_'}…'  # ${keyLine}`,
    `curl -s ${origin}/api/v1/buyAirtime \\`,
    `  -H "authorization: Bearer $KEY" -H "idempotency-key: $(date +%s%N)" \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '{"data":{"network":"mtn","phone":"08031234567","amount":100}}'`,
  ].join('\n');
}
