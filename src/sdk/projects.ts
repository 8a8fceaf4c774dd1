import type {
  AddCommentInput,
  Comment,
  CommentPage,
  CompletedProject,
  CompletedProjectPage,
  CreateProjectInput,
  EditCommentInput,
  Project,
  SearchResponse,
  SearchResult,
  UpdateProjectInput,
} from '../common';
import type { Transport } from './transport';

/** Project writes; reads are live subscriptions (`subscribe`). */
export class ProjectsClient {
  constructor(private readonly transport: Transport) {}

  async create(input: CreateProjectInput): Promise<Project> {
    return (await this.transport.request<{ project: Project }>('POST', '/api/projects', input)).project;
  }

  async get(id: string): Promise<Project> {
    return (
      await this.transport.request<{ project: Project }>('GET', `/api/projects/${encodeURIComponent(id)}`)
    ).project;
  }

  /**
   * An edit by the creator or an admin; `version` is the one the edit started from. A 409 `conflict`
   * means the project changed meanwhile: nothing was saved.
   */
  async update(id: string, input: UpdateProjectInput): Promise<Project> {
    const path = `/api/projects/${encodeURIComponent(id)}`;
    return (await this.transport.request<{ project: Project }>('PATCH', path, input)).project;
  }

  /** 'Mark as Complete': off every dashboard, kept among the completed projects; only its creator may. */
  async complete(id: string): Promise<void> {
    await this.transport.request<void>('DELETE', `/api/projects/${encodeURIComponent(id)}`);
  }

  /** Completed projects, the latest completion first; pass `nextCursor` as `after` for the next page. */
  listCompleted(page: { after?: string | null; limit?: number } = {}): Promise<CompletedProjectPage> {
    const query = new URLSearchParams();
    if (page.after) query.set('after', page.after);
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    const search = query.toString();
    return this.transport.request<CompletedProjectPage>(
      'GET',
      `/api/completed-projects${search ? `?${search}` : ''}`,
    );
  }

  /** One completed project (404 `not-found` when it is open or gone). */
  async getCompleted(id: string): Promise<CompletedProject> {
    const path = `/api/completed-projects/${encodeURIComponent(id)}`;
    return (await this.transport.request<{ project: CompletedProject }>('GET', path)).project;
  }

  /** Back on every dashboard (the creator or an admin). */
  async reopen(id: string): Promise<Project> {
    const path = `/api/completed-projects/${encodeURIComponent(id)}/reopen`;
    return (await this.transport.request<{ project: Project }>('POST', path)).project;
  }

  /** Deletes a completed project and its comments for good (the creator or an admin). */
  async deleteForGood(id: string): Promise<void> {
    await this.transport.request<void>('DELETE', `/api/completed-projects/${encodeURIComponent(id)}`);
  }

  /**
   * A page of a project's comments, newest first. Pass the previous page's `nextCursor` as `before` for
   * the next older one; the newest page is also live (`subscribe(projectCommentsQuery(id, limit), …)`).
   */
  async listComments(
    projectId: string,
    page: { before?: string | null; limit?: number } = {},
  ): Promise<CommentPage> {
    const query = new URLSearchParams();
    if (page.before) query.set('before', page.before);
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    const search = query.toString();
    const path = `/api/projects/${encodeURIComponent(projectId)}/comments${search ? `?${search}` : ''}`;
    return this.transport.request<CommentPage>('GET', path);
  }

  async addComment(projectId: string, input: AddCommentInput): Promise<Comment> {
    const path = `/api/projects/${encodeURIComponent(projectId)}/comments`;
    return (await this.transport.request<{ comment: Comment }>('POST', path, input)).comment;
  }

  /**
   * Projects whose name, details or comments hold every word of `q` (case and accents ignored, the last
   * word as a prefix), best first; each with a snippet of what matched (`highlightRanges` marks the words).
   */
  async search(q: string, options: { limit?: number } = {}): Promise<SearchResult[]> {
    const query = new URLSearchParams({ q });
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    return (await this.transport.request<SearchResponse>('GET', `/api/search?${query.toString()}`)).results;
  }

  /** Rewrites the viewer's own comment (403 for anyone else's); the answer carries its `editedAt`. */
  async editComment(projectId: string, commentId: string, input: EditCommentInput): Promise<Comment> {
    const path = `/api/projects/${encodeURIComponent(projectId)}/comments/${encodeURIComponent(commentId)}`;
    return (await this.transport.request<{ comment: Comment }>('PATCH', path, input)).comment;
  }

  /** Deletes the viewer's own comment (403 for anyone else's). */
  async deleteComment(projectId: string, commentId: string): Promise<void> {
    const path = `/api/projects/${encodeURIComponent(projectId)}/comments/${encodeURIComponent(commentId)}`;
    await this.transport.request<void>('DELETE', path);
  }
}
