/**
 * E10 of the fresh-user trial: a JSON text field of the explorer with a syntax error was refused with the bare parser
 * message ("Expected double-quoted property name in JSON at position 18"), naming neither the field nor its text.
 */
import { describe, expect, it } from 'vitest';
import { modelInput } from '../../src/explorer/view.ts';

describe('explorer modelInput: a bad JSON field is refused in one line naming the field', () => {
  it('names the field, the parser position and the text', () => {
    const text = '{"speeds": [1, 2],}';
    let message = '';
    try {
      modelInput({ lambda: '0.9', d: '2', servers: text });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^servers: not valid JSON \(.*position 18.*\): \{"speeds": \[1, 2\],\}$/);
    expect(message).not.toContain('\n');
  });

  it('valid JSON still passes through parsed', () => {
    expect(modelInput({ lambda: '0.9', d: '2', servers: '{"speeds":[1,2]}' }).servers).toEqual({ speeds: [1, 2] });
  });
});
