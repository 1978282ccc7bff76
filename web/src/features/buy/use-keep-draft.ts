import { useEffect } from 'react';
import { hasAccessToken } from '../../api/client';
import { clearDraft, peekDraft, saveDraft, type DraftFields } from '../../app/draft';
import type { BuyService } from '../../app/buy-services';

/**
 * Keeps a purchase form's fields in this tab while it is open. Leaving the form while signed in drops them; when the
 * session ends under the form (the access token is gone by the time it closes) they stay, and the form opens with
 * them after signing in again; they stay too when it is left to fund the wallet (keepForFunding), and the form opens
 * with them when the customer comes back.
 */
export function useKeepDraft(service: BuyService, fields: DraftFields) {
  const json = JSON.stringify(fields);
  useEffect(() => {
    const f = JSON.parse(json) as DraftFields;
    if (Object.values(f).some((v) => v !== '' && v !== false)) saveDraft({ service, fields: f });
  }, [service, json]);
  useEffect(
    () => () => {
      if (hasAccessToken() && peekDraft()?.funding === undefined) clearDraft();
    },
    [],
  );
}
