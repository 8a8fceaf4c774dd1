import type { AddCommentInput, Comment, CreateProjectInput, Project } from '../common';
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

  /** 'Mark as Complete': deletes the project; only its creator may. */
  async complete(id: string): Promise<void> {
    await this.transport.request<void>('DELETE', `/api/projects/${encodeURIComponent(id)}`);
  }

  async addComment(projectId: string, input: AddCommentInput): Promise<Comment> {
    const path = `/api/projects/${encodeURIComponent(projectId)}/comments`;
    return (await this.transport.request<{ comment: Comment }>('POST', path, input)).comment;
  }
}
