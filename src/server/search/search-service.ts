import type { Kysely } from 'kysely';
import { matchedWordCount, searchSnippet, searchWords, type SearchResult } from '../../common';
import type { Viewer } from '../core/viewer';
import type { Database, DialectName } from '../db/schema';
import { findSearchHits, findSearchTexts } from './search-repository';

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
    if (hits.length === 0) return [];
    const texts = await findSearchTexts(
      db,
      hits.map((hit) => hit.projectId),
      hits.flatMap((hit) => (hit.commentSeq === null ? [] : [hit.commentSeq])),
    );
    const projects = new Map(texts.projects.map((project) => [project.id, project]));
    const comments = new Map(texts.comments.map((comment) => [comment.seq, comment.content]));
    return hits.flatMap((hit): SearchResult[] => {
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
  }
}
