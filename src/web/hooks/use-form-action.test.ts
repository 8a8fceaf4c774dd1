import { describe, expect, it } from 'vitest';
import { AddCommentSchema, COMMENT_MAX_LENGTH, messages } from '../../common';
import { alertLines, checkWith, withEdits, type FormProblems } from './use-form-action';

/** A signup-like form: field name → the id of its control, in page order. */
const fields = { displayName: 'signup-name', email: 'signup-email', password: 'signup-password' };

describe('a form’s own check', () => {
  it('passes the parsed data on, or the first message of each field that is wrong', () => {
    const check = checkWith(AddCommentSchema);
    expect(check({ content: 'Looks good' })).toEqual({ data: { content: 'Looks good' } });
    expect(check({ content: '   ' })).toEqual({ fields: { content: messages.commentRequired } });
    expect(check({ content: 'x'.repeat(COMMENT_MAX_LENGTH + 1) })).toEqual({
      fields: { content: messages.commentTooLong },
    });
  });
});

describe('a form’s problems after edits', () => {
  const submitted: FormProblems = {
    message: 'Not sent.',
    fields: { email: 'Bad email.', password: 'Too short.' },
  };

  it('clears the message of an edited field and sets one the form found since, leaving the rest', () => {
    expect(withEdits(submitted, { email: undefined, displayName: 'Name it.' })).toEqual({
      message: 'Not sent.',
      fields: { password: 'Too short.', displayName: 'Name it.' },
    });
  });

  it('leaves the last submit’s problems as they were', () => {
    withEdits(submitted, { email: undefined });
    expect(submitted.fields).toEqual({ email: 'Bad email.', password: 'Too short.' });
  });
});

describe('a form’s alert', () => {
  it('is empty when nothing is wrong', () => {
    expect(alertLines({ message: null, fields: {} }, fields, [], 'm')).toEqual({ alert: [], errorIds: {} });
  });

  it('lists the submission’s message first, then the fields’ in page order, whatever order they came in', () => {
    const { alert, errorIds } = alertLines(
      { message: 'Not sent.', fields: { password: 'Too short.', displayName: 'Name it.' } },
      fields,
      [],
      'form-message',
    );
    expect(alert).toEqual([
      { key: 'message', id: 'form-message', text: 'Not sent.' },
      { key: 'displayName', id: 'signup-name-error', text: 'Name it.' },
      { key: 'password', id: 'signup-password-error', text: 'Too short.' },
    ]);
    expect(errorIds).toEqual({ displayName: 'signup-name-error', password: 'signup-password-error' });
  });

  it('says a message once, and a field with the same message points at that line', () => {
    const { alert, errorIds } = alertLines(
      { message: messages.emailInUse, fields: { email: messages.emailInUse } },
      fields,
      [],
      'form-message',
    );
    expect(alert).toEqual([{ key: 'message', id: 'form-message', text: messages.emailInUse }]);
    expect(errorIds).toEqual({ email: 'form-message' });
  });

  it('leaves out a field shown under its control, unless its message is the submission’s', () => {
    const below = alertLines(
      { message: null, fields: { password: 'Too short.' } },
      fields,
      ['password'],
      'm',
    );
    expect(below).toEqual({ alert: [], errorIds: {} });
    const both = alertLines(
      { message: 'Too short.', fields: { password: 'Too short.' } },
      fields,
      ['password'],
      'm',
    );
    expect(both.errorIds).toEqual({ password: 'm' });
  });

  it('puts a field the form does not show (a server-only one) after the shown ones, keyed by its name', () => {
    const { alert } = alertLines(
      { message: null, fields: { token: 'Expired.', email: 'Bad email.' } },
      fields,
      [],
      'm',
    );
    expect(alert).toEqual([
      { key: 'email', id: 'signup-email-error', text: 'Bad email.' },
      { key: 'token', id: 'token-error', text: 'Expired.' },
    ]);
  });
});
