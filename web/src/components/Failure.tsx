import { Alert } from '@mantine/core';
import { errorMessage } from '../app/errors';

/** A failed read or action in words a person understands (never a raw code); nothing when there is no error. */
export function Failure({ error }: { error: unknown }) {
  return error ? (
    <Alert color="red" role="alert">
      {errorMessage(error)}
    </Alert>
  ) : null;
}
