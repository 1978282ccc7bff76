/**
 * A saved reply's body with {name} filled by the customer's first name (the first word of their profile name).
 * Without a name the placeholder stays, so the operator sees it in the reply box and writes around it.
 */
export function fillName(body: string, fullName: string | null | undefined): string {
  const first = fullName?.trim().split(/\s+/)[0];
  return first ? body.replaceAll('{name}', first) : body;
}
