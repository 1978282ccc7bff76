import { queryOptions } from '@tanstack/react-query';
import * as api from '../../../../api/calls';

/** Catalogues change rarely: five minutes before a screen asks again (a purchase re-reads the price with staleTime 0). */
const CATALOGUE_MS = 5 * 60_000;

/** Travel eSIMs: the destinations and their plans, the customer's eSIMs, an eSIM's usage and QR image. */
export const esimQueries = {
  all: () => ['vtu', 'esim'] as const,
  esimDestinations: () =>
    queryOptions({
      queryKey: [...esimQueries.all(), 'esimDestinations'],
      queryFn: () => api.listEsimDestinations(),
      staleTime: CATALOGUE_MS,
    }),
  esimPlans: (destination: string) =>
    queryOptions({
      queryKey: [...esimQueries.all(), 'esimPlans', destination],
      queryFn: () => api.listEsimPlans({ destination }),
      enabled: destination !== '',
      staleTime: CATALOGUE_MS,
    }),
  /** The caller's delivered eSIMs (the ones a top-up may go to). */
  myEsims: () =>
    queryOptions({
      queryKey: [...esimQueries.all(), 'myEsims'],
      queryFn: () => api.listMyVtuTransactions({ service: 'esim', status: 'success', limit: 50, offset: 0 }),
    }),
  /** Usage of the eSIM the transaction `id` issued (asked for on demand). */
  esimUsage: (id: string) =>
    queryOptions({
      queryKey: [...esimQueries.all(), 'esimUsage', id],
      queryFn: () => api.getMyEsimUsage({ id }),
      enabled: false,
    }),
  /** The activation code as a QR image (made in the browser; the library loads with it). */
  esimQr: (activationCode: string) =>
    queryOptions({
      queryKey: [...esimQueries.all(), 'esimQr', activationCode],
      queryFn: async () => (await import('qrcode')).toDataURL(activationCode, { margin: 1, width: 240, errorCorrectionLevel: 'M' }),
      enabled: activationCode.length > 0,
      staleTime: Infinity,
    }),
};
