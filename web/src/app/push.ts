import { ApiError } from '../api/client';
import * as api from '../api/calls';

/**
 * Web push on this device: subscribe with the service's VAPID key and hand the subscription to the service. Shared by
 * the app's Notifications screen and the console's "Turn on alerts on this device" (console/AlertsOnDevice.tsx).
 */
export async function enablePush(): Promise<'on' | 'blocked' | 'unsupported'> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'blocked';
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await api.getPushPublicKey();
  const subscribe = () => registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) });
  const save = (subscription: PushSubscription) => {
    const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    return api.savePushSubscription({ endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth });
  };
  const existing = await registration.pushManager.getSubscription();
  try {
    await save(existing ?? (await subscribe()));
  } catch (err) {
    // Another account signed in on this browser still holds its endpoint (the service never moves it): a fresh
    // subscription gets a new endpoint of our own.
    if (!(existing && err instanceof ApiError && err.status === 409)) throw err;
    await existing.unsubscribe();
    await save(await subscribe());
  }
  return 'on';
}

/**
 * After a sign-in: a browser whose owner turned notifications on registers again, since the service ends a push
 * subscription with the session that saved it. Never asks for permission.
 */
export async function renewPush(): Promise<void> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || Notification.permission !== 'granted') return;
  const registration = await navigator.serviceWorker.ready;
  if (await registration.pushManager.getSubscription()) await enablePush();
}

function base64UrlToBytes(s: string): Uint8Array<ArrayBuffer> {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
