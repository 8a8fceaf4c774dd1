import { useState, type ChangeEvent, type ReactNode } from 'react';
import Select, { type MultiValue, type SingleValue } from 'react-select';
import {
  CreateProjectSchema,
  PROJECT_CATEGORIES,
  messages,
  userSearchQuery,
  type CreateProjectInput,
  type Project,
  type ProjectCategory,
  type UserProfile,
} from '../../../common';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useLiveQuery } from '../../hooks/use-live-query';
import { selectControlProps } from './select-theme';

interface CategoryOption {
  value: ProjectCategory;
  label: string;
}

interface UserOption {
  value: string;
  label: string;
}

/** What the project form holds: the create form's fields, as the user has them now. */
export interface ProjectFormValues {
  name: string;
  details: string;
  dueDate: string;
  category: ProjectCategory | null;
  /** The assigned users, in the order they were picked. */
  assignees: readonly UserOption[];
}

/** An empty form, for a new project. */
export const EMPTY_PROJECT_FORM: ProjectFormValues = {
  name: '',
  details: '',
  dueDate: '',
  category: null,
  assignees: [],
};

/** The form filled with a project as it is, for an edit. */
export function projectFormValues(project: Project): ProjectFormValues {
  return {
    name: project.name,
    details: project.details,
    dueDate: project.dueDate,
    category: project.category,
    assignees: project.assignedUsersList.map((user) => ({ value: user.id, label: user.displayName })),
  };
}

/** The fields whose values differ between `a` and `b` (the assignees compared in order). */
export function changedProjectFields(
  a: ProjectFormValues,
  b: ProjectFormValues,
): Array<keyof ProjectFormValues> {
  const sameAssignees =
    a.assignees.length === b.assignees.length &&
    a.assignees.every((option, index) => option.value === b.assignees[index]?.value);
  return (['name', 'details', 'dueDate', 'category', 'assignees'] as const).filter((field) =>
    field === 'assignees' ? !sameAssignees : a[field] !== b[field],
  );
}

/** The category's name as the form and the lists show it, e.g. 'Design'. */
export function categoryLabel(category: ProjectCategory): string {
  return category.charAt(0).toUpperCase() + category.slice(1);
}

const CATEGORY_OPTIONS: readonly CategoryOption[] = PROJECT_CATEGORIES.map((value) => ({
  value,
  label: categoryLabel(value),
}));

/** The form's fields in page order, with the id of each one's control. */
const FIELDS = {
  name: 'project-name',
  details: 'project-details',
  dueDate: 'project-due-date',
  category: 'project-category',
  assignedUserIds: 'project-assignees',
};

/** "Assign to" asks the server once typing pauses this long, not on every keystroke. */
const SEARCH_DELAY_MS = 200;

/**
 * The users "Assign to" offers: the first page by name, or those whose name contains what is typed,
 * searched on the server so that a team of 10,000 is as quick as a team of 10. While a new search is on
 * its way the last result stays on offer (react-select narrows it as the user types).
 */
function useAssigneeSearch() {
  const [typed, setTyped] = useState('');
  const searched = useDebouncedValue(typed.trim(), SEARCH_DELAY_MS);
  const users = useLiveQuery<UserProfile>(userSearchQuery(searched));
  const [shown, setShown] = useState<UserProfile[]>([]);
  if (users.docs && users.docs !== shown) setShown(users.docs);
  return {
    options: (users.docs ?? shown).map((user): UserOption => ({ value: user.id, label: user.displayName })),
    isLoading: users.isPending || searched !== typed.trim(),
    error: users.error,
    setTyped,
  };
}

const checkProject = checkWith(CreateProjectSchema);

export interface ProjectFormProps {
  /** The values shown; the page that owns the form keeps them (an edit replaces them on a conflict). */
  values: ProjectFormValues;
  onChange: (values: ProjectFormValues) => void;
  /**
   * Sends the checked fields. A failure throws (its message and per-field messages become the form's
   * problems), or resolves to a message for the form's alert when the call went through but did not do
   * the job (see `useFormAction`).
   */
  send: (input: CreateProjectInput) => Promise<string | void>;
  submitLabel: string;
  /** Shown between the fields and the submit button (e.g. what an edit could not save). */
  children?: ReactNode;
}

/**
 * The project's fields, rules and messages, for creating a project and for editing one: the shared zod
 * schema checks them in the browser, the server checks them again. Needs react-select's `NonceProvider`
 * around it (see CreateProjectPage).
 */
export function ProjectForm({ values, onChange, send, submitLabel, children }: ProjectFormProps) {
  const users = useAssigneeSearch();
  // A second click before the first answer arrives sends nothing more (docs/product-spec.md#flaw-10): the
  // form's hook ignores it.
  const form = useFormAction({
    check: checkProject,
    send,
    fields: FIELDS,
    // Next to each field, where it is fixed, as well as together in the summary after the button.
    repeatBelow: Object.keys(FIELDS),
  });
  const change = (field: keyof typeof FIELDS, patch: Partial<ProjectFormValues>) => {
    onChange({ ...values, ...patch });
    form.setFieldError(field, undefined);
  };
  /** What a text field of the form needs: its name, value and problem, and its typing kept. */
  const textField = (field: 'name' | 'details' | 'dueDate') => ({
    name: field,
    value: values[field],
    ...form.fieldError(field),
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      change(field, { [field]: event.target.value }),
  });
  const category = CATEGORY_OPTIONS.find((option) => option.value === values.category) ?? null;

  return (
    <form
      className="create-form"
      onSubmit={(event) =>
        form.submit(event, {
          name: values.name,
          details: values.details,
          dueDate: values.dueDate,
          category: values.category ?? undefined,
          assignedUserIds: values.assignees.map((option) => option.value),
        })
      }
      noValidate
    >
      <Field
        id={FIELDS.name}
        label="Project name:"
        type="text"
        required
        autoComplete="off"
        {...textField('name')}
      />
      <Field as="textarea" id={FIELDS.details} label="Project Details:" required {...textField('details')} />
      <Field id={FIELDS.dueDate} label="Set due date:" type="date" required {...textField('dueDate')} />
      <Field as="custom" id={FIELDS.category} label="Project category:" {...form.fieldError('category')}>
        {(control) => (
          <Select<CategoryOption, false>
            {...selectControlProps<CategoryOption, false>(control)}
            options={CATEGORY_OPTIONS}
            value={category}
            onChange={(option: SingleValue<CategoryOption>) =>
              change('category', { category: option?.value ?? null })
            }
          />
        )}
      </Field>
      <Field
        as="custom"
        id={FIELDS.assignedUserIds}
        label="Assign to:"
        {...form.fieldError('assignedUserIds')}
      >
        {(control) => (
          <>
            <Select<UserOption, true>
              {...selectControlProps<UserOption, true>(control)}
              isMulti
              options={users.options}
              value={values.assignees}
              isLoading={users.isLoading}
              onInputChange={(text) => users.setTyped(text)}
              onChange={(options: MultiValue<UserOption>) =>
                change('assignedUserIds', { assignees: options })
              }
            />
            {users.error && <p className="field-error">{messages.fetchFailed}</p>}
          </>
        )}
      </Field>
      {children}
      <FormSubmit form={form} label={submitLabel} />
    </form>
  );
}
