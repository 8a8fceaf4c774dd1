import { useState } from 'react';
import { useNavigate } from 'react-router';
import Select, { NonceProvider, type MultiValue, type SingleValue } from 'react-select';
import {
  CLIENT_ROUTES,
  CreateProjectSchema,
  announcements,
  PROJECT_CATEGORIES,
  messages,
  userSearchQuery,
  type CreateProjectInput,
  type ProjectCategory,
  type UserProfile,
} from '../../../common';
import { Field } from '../../components/field';
import { FormAlert, SubmitButton } from '../../components/form-alert';
import { getCspNonce } from '../../lib/csp-nonce';
import { dojo } from '../../lib/dojo-client';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLiveQuery } from '../../hooks/use-live-query';
import { selectControlProps } from './select-theme';
import './create-project-page.css';
import { PageTitle } from '../../components/page-title';

interface CategoryOption {
  value: ProjectCategory;
  label: string;
}

interface UserOption {
  value: string;
  label: string;
}

const CATEGORY_OPTIONS: readonly CategoryOption[] = PROJECT_CATEGORIES.map((value) => ({
  value,
  label: value.charAt(0).toUpperCase() + value.slice(1),
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

function CreateProjectForm() {
  const navigate = useNavigate();
  const { say } = useAnnouncer();
  const users = useAssigneeSearch();
  const [name, setName] = useState('');
  const [details, setDetails] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [category, setCategory] = useState<CategoryOption | null>(null);
  const [assignees, setAssignees] = useState<readonly UserOption[]>([]);
  // A second click before the first answer arrives creates nothing more (docs/product-spec.md#flaw-10): the
  // form's hook ignores it.
  const form = useFormAction({
    check: checkProject,
    send: async (input: CreateProjectInput) => {
      // Navigate on the result of this call, never on a stale error state (docs/product-spec.md#flaw-9).
      await dojo.projects.create(input);
      say(announcements.projectCreated);
      await navigate(CLIENT_ROUTES.dashboard);
    },
    fields: FIELDS,
    // Next to each field, where it is fixed, as well as together in the summary after the button.
    repeatBelow: Object.keys(FIELDS),
  });
  const edited = (field: keyof typeof FIELDS) => form.setFieldError(field, undefined);

  return (
    <form
      className="create-form"
      onSubmit={(event) =>
        form.submit(event, {
          name,
          details,
          dueDate,
          category: category?.value,
          assignedUserIds: assignees.map((option) => option.value),
        })
      }
      noValidate
    >
      <Field
        id={FIELDS.name}
        label="Project name:"
        name="name"
        type="text"
        required
        autoComplete="off"
        value={name}
        {...form.fieldError('name')}
        onChange={(event) => {
          setName(event.target.value);
          edited('name');
        }}
      />
      <Field
        as="textarea"
        id={FIELDS.details}
        label="Project Details:"
        name="details"
        required
        value={details}
        {...form.fieldError('details')}
        onChange={(event) => {
          setDetails(event.target.value);
          edited('details');
        }}
      />
      <Field
        id={FIELDS.dueDate}
        label="Set due date:"
        name="dueDate"
        type="date"
        required
        value={dueDate}
        {...form.fieldError('dueDate')}
        onChange={(event) => {
          setDueDate(event.target.value);
          edited('dueDate');
        }}
      />
      <Field as="custom" id={FIELDS.category} label="Project category:" {...form.fieldError('category')}>
        {(control) => (
          <Select<CategoryOption, false>
            {...selectControlProps<CategoryOption, false>(control)}
            options={CATEGORY_OPTIONS}
            value={category}
            onChange={(option: SingleValue<CategoryOption>) => {
              setCategory(option);
              edited('category');
            }}
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
              value={assignees}
              isLoading={users.isLoading}
              onInputChange={(text) => users.setTyped(text)}
              onChange={(options: MultiValue<UserOption>) => {
                setAssignees(options);
                edited('assignedUserIds');
              }}
            />
            {users.error && <p className="field-error">{messages.fetchFailed}</p>}
          </>
        )}
      </Field>
      <SubmitButton pending={form.isPending}>Add Project</SubmitButton>
      <FormAlert lines={form.alert} />
    </form>
  );
}

/**
 * This page is its own chunk (see app-routes), so react-select and its styling engine load only here.
 * NonceProvider is react-select's emotion CacheProvider around `createCache({ key, nonce })`: the
 * `<style>` elements it inserts carry the request's nonce and pass the server's CSP.
 */
export function CreateProjectPage() {
  useDocumentTitle('Create a new Project');
  return (
    <NonceProvider nonce={getCspNonce() ?? ''} cacheKey="dojo">
      <div className="create-project">
        <PageTitle>Create a new Project</PageTitle>
        <CreateProjectForm />
      </div>
    </NonceProvider>
  );
}
