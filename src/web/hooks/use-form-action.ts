import {
  startTransition,
  useActionState,
  useEffect,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
} from 'react';
import type { z } from 'zod/mini';
import type { FieldErrors } from '../../common';
import type { AlertLine } from '../components/form-alert';
import { errorFields, errorMessage, fieldErrorsFromIssues } from '../lib/error-message';

/** What a text `Field` needs to show and edit one value of a form. */
export interface TextFieldBinding {
  name: string;
  value: string;
  error: string | undefined;
  errorId: string | undefined;
  repeatBelow: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
}

/** What is wrong with a form after its last submit: per field, and with the whole submission. */
export interface FormProblems {
  fields: FieldErrors;
  message: string | null;
}

/** The outcome of a form's own check: the data to send, or a message per field that is wrong. */
export type Checked<Data> = { data: Data } | { fields: FieldErrors };

/** A form's check by one of the shared zod schemas: the first message per field, keyed like the inputs. */
export function checkWith<Data>(schema: z.ZodMiniType<Data>) {
  return (values: unknown): Checked<Data> => {
    const parsed = schema.safeParse(values);
    return parsed.success ? { data: parsed.data } : { fields: fieldErrorsFromIssues(parsed.error.issues) };
  };
}

export interface FormActionOptions<Values, Data> {
  /** The browser's check, before anything is sent (the same zod schema the server applies). */
  check: (values: Values) => Checked<Data> | Promise<Checked<Data>>;
  /**
   * Sends the checked data. A failure throws (an SDK `DojoError`: its message and per-field messages
   * become the form's problems), or resolves to a message when the call went through but did not do
   * the job. The values stay in the form either way: nothing typed is lost on a server error.
   */
  send: (data: Data) => Promise<string | void>;
  /** The form's fields in page order: name → the id of its control. */
  fields: Readonly<Record<string, string>>;
  /** Fields whose message is shown under the control; every other message is a line of the form's alert. */
  shownBelow?: readonly string[];
  /** Fields whose message is a line of the alert and is shown under the control as well. */
  repeatBelow?: readonly string[];
}

const NO_PROBLEMS: FormProblems = { fields: {}, message: null };

/** The last submit's problems with the edits made since: a message replaces the field's, none clears it. */
export function withEdits(
  submitted: FormProblems,
  edited: Readonly<Record<string, string | undefined>>,
): FormProblems {
  const problems: FormProblems = { message: submitted.message, fields: { ...submitted.fields } };
  for (const [name, text] of Object.entries(edited)) {
    if (text) problems.fields[name] = text;
    else delete problems.fields[name];
  }
  return problems;
}

/**
 * The lines of a form's alert and, per field whose message is one of them, the id of its line. One line
 * per distinct message: the submission's first, then the fields' in page order. A field whose message is
 * a line already (e.g. the server's 'email in use' is both) points at that line. A field in `shownBelow`
 * has no line, unless its message is the submission's.
 */
export function alertLines(
  problems: FormProblems,
  fields: Readonly<Record<string, string>>,
  shownBelow: readonly string[],
  messageId: string,
): { alert: AlertLine[]; errorIds: Record<string, string> } {
  const alert: AlertLine[] = [];
  const errorIds: Record<string, string> = {};
  const addLine = (key: string, id: string, text: string): string => {
    const same = alert.find((line) => line.text === text);
    if (same) return same.id;
    alert.push({ key, id, text });
    return id;
  };
  if (problems.message) addLine('message', messageId, problems.message);
  const inPageOrder = [
    ...Object.keys(fields),
    ...Object.keys(problems.fields).filter((name) => !(name in fields)),
  ];
  for (const name of inPageOrder) {
    const text = problems.fields[name];
    if (!text || (shownBelow.includes(name) && text !== problems.message)) continue;
    errorIds[name] = addLine(name, `${fields[name] ?? name}-error`, text);
  }
  return { alert, errorIds };
}

/**
 * The one form pattern (docs/architecture.md#the-web-app-srcweb), on React's `useActionState`: submit runs
 * the check, then the send, as one action; a submit while one is under way is ignored (no double
 * submit); client and server problems land in the same place, so a field the server refuses is marked,
 * described and focused exactly like one the check refused. After every submit that found a problem,
 * focus moves to the first invalid control in page order (or stays on the submit button when only the
 * whole submission failed). Editing a field clears its message (`setFieldError(name, undefined)`).
 */
export function useFormAction<Values, Data>({
  check,
  send,
  fields,
  shownBelow = [],
  repeatBelow = [],
}: FormActionOptions<Values, Data>) {
  const sending = useRef(false);
  const messageId = `${useId()}-message`;

  const [state, dispatch, isPending] = useActionState(
    async (_previous: FormProblems, values: Values): Promise<FormProblems> => {
      try {
        const checked = await check(values);
        if ('fields' in checked) return { fields: checked.fields, message: null };
        const message = await send(checked.data);
        return { fields: {}, message: message || null };
      } catch (error) {
        return { fields: errorFields(error), message: errorMessage(error) };
      } finally {
        sending.current = false;
      }
    },
    NO_PROBLEMS,
  );

  // Changes made since the last submit (a field edited, a file checked as it was picked); the next
  // submit's outcome replaces them.
  const [edits, setEdits] = useState({ of: state, fields: {} as Record<string, string | undefined> });
  const edited = edits.of === state ? edits.fields : {};
  const problems = withEdits(state, edited);

  useEffect(() => {
    const first = Object.keys(fields).find((name) => state.fields[name]);
    if (first) document.getElementById(fields[first] ?? '')?.focus();
  }, [state, fields]);

  const { alert, errorIds } = alertLines(problems, fields, shownBelow, messageId);

  const fieldError = (name: string) => ({
    error: problems.fields[name],
    errorId: errorIds[name],
    repeatBelow: repeatBelow.includes(name),
  });
  const setFieldError = (name: string, text: string | undefined) =>
    setEdits((current) => ({
      of: state,
      fields: { ...(current.of === state ? current.fields : {}), [name]: text },
    }));

  return {
    isPending,
    problems,
    /** The lines of the form's alert. */
    alert,
    /** Props for the `Field` of `name`: its message, and where it is shown if not under the control. */
    fieldError,
    /** Sets (or with `undefined` clears) a field's message until the next submit. */
    setFieldError,
    /** Props for a text `Field` kept in `value`: typing updates it and clears the field's message. */
    textField: (name: string, value: string, setValue: (value: string) => void): TextFieldBinding => ({
      name,
      value,
      ...fieldError(name),
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        setValue(event.target.value);
        setFieldError(name, undefined);
      },
    }),
    /** Handles the form's submit event: checks and sends `values`, unless a submit is under way. */
    submit: (event: FormEvent<HTMLFormElement>, values: Values) => {
      event.preventDefault();
      if (sending.current) return;
      sending.current = true;
      startTransition(() => dispatch(values));
    },
  };
}
