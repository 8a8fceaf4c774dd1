import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import Select, { NonceProvider, type MultiValue, type SingleValue } from 'react-select';
import {
  CLIENT_ROUTES,
  CreateProjectSchema,
  PROJECT_CATEGORIES,
  messages,
  userSearchQuery,
  type FieldErrors,
  type ProjectCategory,
  type UserProfile,
} from '../../../common';
import { getCspNonce } from '../../lib/csp-nonce';
import { fieldErrorsFromIssues } from '../../lib/error-message';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLiveQuery } from '../../hooks/use-live-query';
import { FormField } from '../../components/form-field';
import { TextAreaField } from '../../components/text-area-field';
import { DescribedInput, selectStyles, selectTheme } from './select-theme';
import { useCreateProject } from './use-create-project';
import './create-project-page.css';

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

/** The form's fields in page order, with the id of the control that takes focus for each. */
const FIELDS = [
  ['name', 'project-name'],
  ['details', 'project-details'],
  ['dueDate', 'project-due-date'],
  ['category', 'project-category'],
  ['assignedUserIds', 'project-assignees'],
] as const;
type Field = (typeof FIELDS)[number][0];

const errorIdOf = (controlId: string) => `${controlId}-error`;

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

interface Alert {
  key: string;
  id?: string;
  text: string;
}

function CreateProjectForm() {
  const navigate = useNavigate();
  const { create, error, isPending } = useCreateProject();
  const users = useAssigneeSearch();
  const [name, setName] = useState('');
  const [details, setDetails] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [category, setCategory] = useState<CategoryOption | null>(null);
  const [assignees, setAssignees] = useState<readonly UserOption[]>([]);
  const [problems, setProblems] = useState<FieldErrors>({});
  // A second click before the first answer arrives must not create a second project (docs/product-spec.md#flaw-10).
  const submittingRef = useRef(false);

  const clearProblem = (field: Field) =>
    setProblems((current) => {
      if (!(field in current)) return current;
      const { [field]: _removed, ...rest } = current;
      return rest;
    });

  // A field's problem: the browser's check first, else what the server said about it.
  const problemOf = (field: Field): string | undefined => problems[field] ?? error?.fields[field];

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || submittingRef.current) return;
    const parsed = CreateProjectSchema.safeParse({
      name,
      details,
      dueDate,
      category: category?.value,
      assignedUserIds: assignees.map((option) => option.value),
    });
    if (!parsed.success) {
      const found = fieldErrorsFromIssues(parsed.error.issues);
      setProblems(found);
      const first = FIELDS.find(([field]) => field in found);
      if (first) document.getElementById(first[1])?.focus();
      return;
    }
    setProblems({});
    submittingRef.current = true;
    try {
      // Navigate on the result of this call, never on a stale error state (docs/product-spec.md#flaw-9).
      const project = await create(parsed.data);
      if (project) await navigate(CLIENT_ROUTES.dashboard);
    } finally {
      submittingRef.current = false;
    }
  };

  // Every message in one alert below the form; each field points at its own line (aria-describedby).
  const alerts: Alert[] = [];
  for (const [field, controlId] of FIELDS) {
    const text = problemOf(field);
    if (text) alerts.push({ key: field, id: errorIdOf(controlId), text });
  }
  if (error) {
    const texts = new Set(alerts.map((alert) => alert.text));
    if (!texts.has(error.message)) alerts.unshift({ key: 'server', text: error.message });
    for (const [field, text] of Object.entries(error.fields)) {
      if (!texts.has(text) && text !== error.message) alerts.push({ key: `server-${field}`, text });
    }
  }

  const invalidProps = (field: Field, controlId: string) =>
    problemOf(field) ? { 'aria-invalid': true, 'aria-describedby': errorIdOf(controlId) } : {};

  return (
    <form className="create-form" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <FormField
        id="project-name"
        label="Project name:"
        name="name"
        type="text"
        required
        autoComplete="off"
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          clearProblem('name');
        }}
        {...invalidProps('name', 'project-name')}
      />
      <TextAreaField
        id="project-details"
        label="Project Details:"
        name="details"
        required
        value={details}
        onChange={(event) => {
          setDetails(event.target.value);
          clearProblem('details');
        }}
        {...invalidProps('details', 'project-details')}
      />
      <FormField
        id="project-due-date"
        label="Set due date:"
        name="dueDate"
        type="date"
        required
        value={dueDate}
        onChange={(event) => {
          setDueDate(event.target.value);
          clearProblem('dueDate');
        }}
        {...invalidProps('dueDate', 'project-due-date')}
      />
      <div className="form-field">
        <label htmlFor="project-category">Project category:</label>
        <Select<CategoryOption, false>
          inputId="project-category"
          options={CATEGORY_OPTIONS}
          value={category}
          onChange={(option: SingleValue<CategoryOption>) => {
            setCategory(option);
            clearProblem('category');
          }}
          components={{ Input: DescribedInput }}
          theme={selectTheme}
          styles={selectStyles<CategoryOption, false>(Boolean(problemOf('category')))}
          aria-invalid={Boolean(problemOf('category'))}
          aria-errormessage={problemOf('category') ? errorIdOf('project-category') : undefined}
        />
      </div>
      <div className="form-field">
        <label htmlFor="project-assignees">Assign to:</label>
        <Select<UserOption, true>
          inputId="project-assignees"
          isMulti
          options={users.options}
          value={assignees}
          isLoading={users.isLoading}
          onInputChange={(text) => users.setTyped(text)}
          onChange={(options: MultiValue<UserOption>) => {
            setAssignees(options);
            clearProblem('assignedUserIds');
          }}
          components={{ Input: DescribedInput }}
          theme={selectTheme}
          styles={selectStyles<UserOption, true>(Boolean(problemOf('assignedUserIds')))}
          aria-invalid={Boolean(problemOf('assignedUserIds'))}
          aria-errormessage={problemOf('assignedUserIds') ? errorIdOf('project-assignees') : undefined}
        />
        {users.error && <p className="field-error">{messages.fetchFailed}</p>}
      </div>
      <button className="btn" type="submit" disabled={isPending}>
        Add Project
      </button>
      {alerts.length > 0 && (
        <div className="error form-alert" role="alert">
          {alerts.map((alert) => (
            <p key={alert.key} id={alert.id}>
              {alert.text}
            </p>
          ))}
        </div>
      )}
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
        <h2 className="page-title">Create a new Project</h2>
        <CreateProjectForm />
      </div>
    </NonceProvider>
  );
}
