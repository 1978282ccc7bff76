import client from 'prom-client';

/**
 * Process-wide Prometheus metrics that code outside http/ records: upstream calls and SMS sends.
 * Every app's /metrics merges this registry with its own (src/http/metrics.ts).
 */
export const processMetrics = new client.Registry();

const upstreamDuration = new client.Histogram({
  name: 'upstream_request_duration_seconds',
  help: 'Latency of calls to upstreams (VTU providers, payment processor, SMS gateway) by outcome',
  labelNames: ['upstream', 'outcome'],
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processMetrics],
});

const smsSends = new client.Counter({
  name: 'sms_sends_total',
  help: 'SMS handed to the gateway, by provider and result (sent, error)',
  labelNames: ['provider', 'result'],
  registers: [processMetrics],
});

export type UpstreamOutcome = 'ok' | 'client_error' | 'server_error' | 'timeout' | 'network';

export function outcomeOfStatus(status: number): UpstreamOutcome {
  return status >= 500 ? 'server_error' : status >= 400 ? 'client_error' : 'ok';
}

/** Times `call` under `upstream`; a thrown error counts as a timeout when `isTimeout` says so, else as network. */
export async function timedUpstream<T extends { status: number }>(
  upstream: string,
  call: () => Promise<T>,
  isTimeout: (err: unknown) => boolean,
): Promise<T> {
  const end = upstreamDuration.startTimer({ upstream });
  try {
    const res = await call();
    end({ outcome: outcomeOfStatus(res.status) });
    return res;
  } catch (err) {
    end({ outcome: isTimeout(err) ? 'timeout' : 'network' });
    throw err;
  }
}

export function countSmsSend(provider: string, result: 'sent' | 'error') {
  smsSends.inc({ provider, result });
}
