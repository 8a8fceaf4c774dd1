import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { messages } from '../../common';
import { AppError } from './app-error';
import { fieldErrorsOf, parseInput } from './validate';

const Schema = z.object({
  name: z.string().min(1, 'name required').min(3, 'name too short'),
  age: z.number({ error: 'age must be a number' }).int('age must be whole'),
  address: z.object({ city: z.string({ error: 'city required' }) }),
});

function errorOf(input: unknown): z.ZodError {
  const result = Schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be invalid');
  return result.error;
}

/** Runs parseInput expecting an AppError and returns it. */
function appErrorOf(schema: z.ZodType, input: unknown): AppError {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('parseInput accepted the input');
}

describe('fieldErrorsOf', () => {
  it('keeps only the first message per field', () => {
    const error = errorOf({ name: '', age: 1, address: { city: 'x' } });
    // zod reports both min checks for '' — the first wins.
    expect(error.issues.filter((issue) => issue.path[0] === 'name').length).toBeGreaterThan(1);
    expect(fieldErrorsOf(error)).toEqual({ name: 'name required' });
  });

  it('reports one message for every bad field', () => {
    expect(fieldErrorsOf(errorOf({ name: 'ab', age: 'x', address: { city: 'x' } }))).toEqual({
      name: 'name too short',
      age: 'age must be a number',
    });
  });

  it('keys nested problems by the top-level field', () => {
    expect(fieldErrorsOf(errorOf({ name: 'abc', age: 1, address: {} }))).toEqual({
      address: 'city required',
    });
  });

  it("keys problems with no path under '_'", () => {
    const result = z.string({ error: 'must be text' }).safeParse(42);
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error as z.ZodError)).toEqual({ _: 'must be text' });
  });
});

describe('parseInput', () => {
  it('returns the parsed data for valid input', () => {
    const Trimmed = z.object({ name: z.string().trim() });
    expect(parseInput(Trimmed, { name: '  x  ' })).toEqual({ name: 'x' });
  });

  it("throws an AppError with code 'invalid-argument', status 400 and the field errors", () => {
    const error = appErrorOf(Schema, { name: '', age: 'x', address: { city: 'x' } });
    expect(error.code).toBe('invalid-argument');
    expect(error.status).toBe(400);
    expect(error.fields).toEqual({ name: 'name required', age: 'age must be a number' });
    expect(error.message).toBe('name required');
  });

  it('treats undefined and null input as an empty object', () => {
    const Optional = z.object({ tag: z.string().optional() });
    expect(parseInput(Optional, undefined)).toEqual({});
    expect(parseInput(Optional, null)).toEqual({});
    expect(appErrorOf(Schema, undefined).fields).toEqual({
      name: expect.any(String),
      age: 'age must be a number',
      address: expect.any(String),
    });
  });

  it("answers the catalogue's badRequest where the schema has no message of its own", () => {
    const Plain = z.object({ tag: z.string(), count: z.number().int() });
    expect(appErrorOf(Plain, 'not an object').message).toBe(messages.badRequest);
    expect(appErrorOf(Plain, { tag: 1, count: 1 }).fields).toEqual({ tag: messages.badRequest });
    expect(appErrorOf(Schema, { name: 'abc', age: 'x', address: { city: 'x' } }).message).toBe(
      'age must be a number',
    );
  });
});
