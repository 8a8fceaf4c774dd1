import type { RefObject } from 'react';
import { Field } from '../../components/field';
import type { TextFieldBinding } from '../../hooks/use-form-action';
import { MentionTextarea } from './mention-textarea';

/** A comment box with @mention suggestions; a pick is remembered so that its '@Name' is sent as a token. */
export function MentionField({
  id,
  label,
  binding,
  setValue,
  picked,
  textareaRef,
}: {
  id: string;
  label: string;
  binding: TextFieldBinding;
  setValue: (value: string) => void;
  picked: Map<string, string>;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  const { name, value, onChange, ...problem } = binding;
  return (
    <Field as="custom" id={id} label={label} {...problem}>
      {(control) => (
        <MentionTextarea
          control={control}
          name={name}
          value={value}
          onChange={onChange}
          setValue={setValue}
          onPick={(user) => picked.set(user.displayName, user.id)}
          textareaRef={textareaRef}
        />
      )}
    </Field>
  );
}
