import { describe, expect, it } from 'vitest';
import { fillName } from './canned';

describe('fillName', () => {
  it('fills every {name} with the first word of the profile name', () => {
    expect(fillName('Hello {name}, thanks {name}.', '  Ada  Lovelace Obi ')).toBe('Hello Ada, thanks Ada.');
  });
  it('leaves {name} for the operator when the customer has no name', () => {
    expect(fillName('Hello {name}', null)).toBe('Hello {name}');
    expect(fillName('Hello {name}', '   ')).toBe('Hello {name}');
  });
});
