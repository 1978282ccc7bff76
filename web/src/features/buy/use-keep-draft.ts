import { useEffect } from 'react';
import { hasAccessToken } from '../../api/client';
import { clearDraft, saveDraft, type DraftFields } from '../../app/draft';
import type { BuyService } from '../../app/buy-services';

/**
 * Keeps a purchase form's fields in this tab while it is open. Leaving the form while signed in drops them; when the
 * session ends under the form (the access token is gone by the time it closes) they stay, and the form opens with
 * them after signing in again.
 */
export function useKeepDraft(service: BuyService, fields: DraftFields) {
  const json = JSON.stringify(fields);
  useEffect(() => {
    const f = JSON.parse(json) as DraftFields;
    if (Object.values(f).some((v) => v !== '' && v !== false)) saveDraft({ service, fields: f });
  }, [service, json]);
  useEffect(
    () => () => {
      if (hasAccessToken()) clearDraft();
    },
    [],
  );
}
