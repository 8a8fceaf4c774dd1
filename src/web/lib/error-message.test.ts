import { describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { DojoError } from '../../sdk';
import { errorFields, errorMessage, fieldErrorsFromIssues } from './error-message';

describe('a failed call’s message', () => {
  it('is the server’s message for an SDK error', () => {
    const error = new DojoError('email-already-in-use', messages.emailInUse, 409, {
      email: messages.emailInUse,
    });
    expect(errorMessage(error)).toBe(messages.emailInUse);
    expect(errorFields(error)).toEqual({ email: messages.emailInUse });
  });

  it('is the generic one for anything else, never a raw error', () => {
    expect(errorMessage(new TypeError('Failed to fetch at line 3'))).toBe(messages.internal);
    expect(errorMessage('boom')).toBe(messages.internal);
    expect(errorFields(new Error('boom'))).toEqual({});
  });

  it('has no per-field problems when the server sent none', () => {
    expect(errorFields(new DojoError('not-found', 'Gone.', 404))).toEqual({});
  });
});

describe('per-field messages of a failed parse', () => {
  it('keeps the first message of each top-level field', () => {
    expect(
      fieldErrorsFromIssues([
        { path: ['name'], message: 'Name it.' },
        { path: ['name'], message: 'Shorter, please.' },
        { path: ['assignees', 3], message: 'Unknown person.' },
        { path: ['dueDate'], message: 'Pick a day.' },
      ]),
    ).toEqual({ name: 'Name it.', assignees: 'Unknown person.', dueDate: 'Pick a day.' });
  });

  it('leaves out problems of the whole form or keyed by a symbol', () => {
    expect(
      fieldErrorsFromIssues([
        { path: [], message: 'Wrong shape.' },
        { path: [Symbol('x')], message: 'Hidden.' },
        { path: [0], message: 'An index.' },
      ]),
    ).toEqual({});
  });
});
