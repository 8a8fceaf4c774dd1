import type { Kysely } from 'kysely';
import { matchedWordCount, searchSnippet, searchWords, type SearchResult } from '../../common';
import type { Viewer } from '../core/viewer';
import type { Database, DialectName } from '../db/schema';
import { findAttachmentNameHits, findSearchHits, findSearchTexts } from './search-repository';

/**
 * Project search (docs/decisions/020-search.md). The index is kept by database triggers, so this only
 * reads: the ranked hits, then the texts to show. Every signed-in user sees every project, so the viewer
 * narrows nothing yet; results are read from `projects`, so a project that is gone is never shown.
 * Completed projects are kept, and found, marked `completed`.
 */
export class SearchService {
  constructor(private readonly deps: { db: Kysely<Database>; dialect: DialectName }) {}

  async search(_viewer: Viewer, input: { q: string; limit: number }): Promise<SearchResult[]> {
    const { db, dialect } = this.deps;
    const words = searchWords(input.q);
    if (words.length === 0) return [];
    const hits = await findSearchHits(db, dialect, words, input.limit);
    // After the projects found by their text and comments: those found only by an attachment's file name.
    const found = new Set(hits.map((hit) => hit.projectId));
    const byFileName =
      hits.length < input.limit
        ? (await findAttachmentNameHits(db, words, input.limit))
            .filter((hit) => !found.has(hit.projectId))
            .slice(0, input.limit - hits.length)
        : [];
    if (hits.length === 0 && byFileName.length === 0) return [];
    const texts = await findSearchTexts(
      db,
      [...hits.map((hit) => hit.projectId), ...byFileName.map((hit) => hit.projectId)],
      hits.flatMap((hit) => (hit.commentSeq === null ? [] : [hit.commentSeq])),
    );
    const projects = new Map(texts.projects.map((project) => [project.id, project]));
    const comments = new Map(texts.comments.map((comment) => [comment.seq, comment.content]));
    const fileNameResults = byFileName.flatMap((hit): SearchResult[] => {
      const project = projects.get(hit.projectId);
      if (!project) return [];
      return [
        {
          id: project.id,
          name: project.name,
          category: project.category,
          completed: project.completed_at !== null,
          field: 'attachment',
          snippet: searchSnippet(hit.name, input.q),
        },
      ];
    });
    const textResults = hits.flatMap((hit): SearchResult[] => {
      const project = projects.get(hit.projectId);
      if (!project) return [];
      const base = {
        id: project.id,
        name: project.name,
        category: project.category,
        completed: project.completed_at !== null,
      };
      const comment = hit.commentSeq === null ? undefined : comments.get(hit.commentSeq);
      if (comment !== undefined) {
        return [{ ...base, field: 'comment', snippet: searchSnippet(comment, input.q) }];
      }
      // The project's own text matched: its name when that holds as many of the words as the details.
      const field =
        matchedWordCount(project.name, words) >= matchedWordCount(project.details, words)
          ? 'name'
          : 'details';
      return [
        {
          ...base,
          field,
          snippet: searchSnippet(field === 'name' ? project.name : project.details, input.q),
        },
      ];
    });
    return [...textResults, ...fileNameResults];
  }
}
