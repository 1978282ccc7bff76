import { get, post } from '../../api/client';

/** Web push on this device: subscribe with the service's VAPID key and hand the subscription to the service. */
export async function enablePush(): Promise<'on' | 'blocked' | 'unsupported'> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'blocked';
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await get('/_serverFn/getPushPublicKeyPublicPush');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) }));
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await post('/_serverFn/savePushSubscriptionBearerPush', { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth });
  return 'on';
}

function base64UrlToBytes(s: string): Uint8Array<ArrayBuffer> {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
