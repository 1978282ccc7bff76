import { Alert } from '@mantine/core';
import { errorMessage } from '../app/errors';

/** A form's outcome: the service's refusal in the reader's words (a cancelled step-up says nothing), or `ok`. */
export function Result({ error, ok }: { error: unknown; ok?: string | false }) {
  if (error && !(error instanceof Error && error.message === 'cancelled'))
    return (
      <Alert color="red" role="alert">
        {errorMessage(error)}
      </Alert>
    );
  if (ok)
    return (
      <Alert color="green" role="status">
        {ok}
      </Alert>
    );
  return null;
}
