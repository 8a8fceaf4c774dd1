import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, DialectName } from '../db/schema';

/**
 * How many of the newest matching projects, and of the newest matching comments, a search considers.
 * Ranking reads every candidate's statistics, so a word found in half a million rows would cost in
 * proportion; the window keeps a search's cost bounded whatever the data (docs/decisions/020-search.md).
 */
const CANDIDATES_PER_SOURCE = 1000;

/** One project a search found: its best hit, a project's own text (`commentSeq` null) or a comment. */
export interface SearchHit {
  projectId: string;
  score: number;
  commentSeq: number | null;
}

/**
 * The best `limit` projects whose name and details, or one of whose comments, hold every word (the last
 * as a prefix), best first. `words` are letters and digits only (`searchWords`), quoted again here.
 */
export function findSearchHits(
  db: Kysely<Database>,
  dialect: DialectName,
  words: readonly string[],
  limit: number,
): Promise<SearchHit[]> {
  return dialect === 'sqlite' ? findSqliteHits(db, words, limit) : findPostgresHits(db, words, limit);
}

/** An FTS5 query: each word a quoted string (no operator can come from it), the last one a prefix. */
function fts5Query(words: readonly string[]): string {
  return words
    .map((word, index) => `"${word.replaceAll('"', '""')}"${index === words.length - 1 ? '*' : ''}`)
    .join(' ');
}

/**
 * Best first, the same way on both engines: a project whose own text matched (by its engine's rank, higher
 * is better) before one where only a comment did; comment matches newest first. A project keeps its best hit.
 */
const bestPerProject = (hits: RawBuilder<unknown>, limit: number) => sql`
  select project_id as "projectId", score, comment_seq as "commentSeq" from (
    select project_id, score, comment_seq,
      row_number() over (
        partition by project_id order by comment_seq is null desc, score desc, comment_seq desc
      ) as place
    from (${hits}) hits
  ) ranked
  where place = 1
  order by comment_seq is null desc, score desc, comment_seq desc, project_id
  limit ${limit}`;

async function findSqliteHits(
  db: Kysely<Database>,
  words: readonly string[],
  limit: number,
): Promise<SearchHit[]> {
  const query = fts5Query(words);
  // bm25 is lower for better matches: negated so that both engines sort the same way. A word in a name
  // weighs 2.5× one in the details. Comments are not ranked by bm25: its document frequencies are read
  // from every comment holding each word, which for a common word is most of the table (decision 020).
  const hits = sql`
    select keys.project_id, matches.score, null as comment_seq
    from (
      select rowid, -bm25(projects_fts, 10.0, 4.0) as score from projects_fts
      where projects_fts match ${query} order by rowid desc limit ${CANDIDATES_PER_SOURCE}
    ) matches
    join project_search_keys keys on keys.seq = matches.rowid
    union all
    select comments.project_id, 0, comments.seq
    from (
      select rowid from comments_fts
      where comments_fts match ${query} order by rowid desc limit ${COMMENT_CANDIDATES}
    ) matches
    join comments on comments.seq = matches.rowid`;
  const result = await bestPerProject(hits, limit).execute(db);
  return (result.rows as SearchHit[]).map(numericHit);
}

/** The newest rows PostgreSQL first looks through, walking the primary key, before it asks the GIN index. */
const POSTGRES_RECENT_ROWS = 20_000;
/** Comments are ranked newest first, so this many newest matches always hold `limit` projects or all there are. */
const COMMENT_CANDIDATES = 4 * 50;

/**
 * The newest `want` rows of a search table matching the query. Walking the newest POSTGRES_RECENT_ROWS by
 * key finds them at once for a common word, where the GIN index would read every one of its matches; when
 * that window holds fewer, the words are rare and the GIN index reads few rows. (One plan cannot do both:
 * the planner misjudges how many rows a prefix matches.)
 */
async function newestPostgresMatches(
  db: Kysely<Database>,
  source: 'project' | 'comment',
  words: readonly string[],
  want: number,
): Promise<SearchHit[]> {
  const query = sql`dojo_search_query(${sql.val([...words])}::text[])`;
  const columns =
    source === 'project'
      ? sql`project_id as "projectId", ts_rank(document, ${query}) as score, null as "commentSeq"`
      : sql`project_id as "projectId", 0 as score, comment_seq as "commentSeq"`;
  const table = source === 'project' ? sql`project_search` : sql`comment_search`;
  const key = source === 'project' ? sql`seq` : sql`comment_seq`;
  const recent = await sql`
    select ${columns} from (select * from ${table} order by ${key} desc limit ${POSTGRES_RECENT_ROWS}) recent
    where document @@ ${query} order by ${key} desc limit ${want}`.execute(db);
  if (recent.rows.length >= want) return (recent.rows as SearchHit[]).map(numericHit);
  const all = await sql`
    select ${columns} from ${table}
    where document @@ ${query} order by ${key} + 0 desc limit ${want}`.execute(db);
  return (all.rows as SearchHit[]).map(numericHit);
}

async function findPostgresHits(
  db: Kysely<Database>,
  words: readonly string[],
  limit: number,
): Promise<SearchHit[]> {
  // ts_rank weighs name (A) 1.0 and details (B) 0.4; comments come after, newest first, as on SQLite.
  const [projects, comments] = await Promise.all([
    newestPostgresMatches(db, 'project', words, CANDIDATES_PER_SOURCE),
    newestPostgresMatches(db, 'comment', words, COMMENT_CANDIDATES),
  ]);
  projects.sort((a, b) => b.score - a.score || (a.projectId < b.projectId ? -1 : 1));
  const best = new Map<string, SearchHit>();
  for (const hit of [...projects, ...comments]) {
    if (best.size >= limit) break;
    if (!best.has(hit.projectId)) best.set(hit.projectId, hit);
  }
  return [...best.values()];
}

const numericHit = (hit: SearchHit): SearchHit => ({
  projectId: hit.projectId,
  score: Number(hit.score),
  commentSeq: hit.commentSeq === null ? null : Number(hit.commentSeq),
});

/**
 * The newest projects with an attachment whose file name holds every word (case and accents ignored; a file name is
 * short, so a scan of the newest attachments by LIKE does), with that file's name. `words` are letters and
 * digits only (`searchWords`), so none of them is a LIKE wildcard.
 */
export async function findAttachmentNameHits(
  db: Kysely<Database>,
  words: readonly string[],
  limit: number,
): Promise<{ projectId: string; name: string }[]> {
  let select = db.selectFrom('attachments').select(['project_id', 'name']);
  // `search_name` is the name folded as the words are (`nameSearchKey`): case and accents ignored alike.
  for (const word of words) select = select.where('search_name', 'like', `%${word}%`);
  const rows = await select.orderBy('seq', 'desc').limit(CANDIDATES_PER_SOURCE).execute();
  const seen = new Set<string>();
  const hits: { projectId: string; name: string }[] = [];
  for (const row of rows) {
    if (seen.has(row.project_id)) continue;
    seen.add(row.project_id);
    hits.push({ projectId: row.project_id, name: row.name });
    if (hits.length === limit) break;
  }
  return hits;
}

/** The texts results are shown from: the projects (only those that exist) and the comments that matched. */
export async function findSearchTexts(
  db: Kysely<Database>,
  projectIds: readonly string[],
  commentSeqs: readonly number[],
): Promise<{
  projects: { id: string; name: string; details: string; category: string; completed_at: string | null }[];
  comments: { seq: number; content: string }[];
}> {
  const projects =
    projectIds.length === 0
      ? []
      : await db
          .selectFrom('projects')
          .select(['id', 'name', 'details', 'category', 'completed_at'])
          .where('id', 'in', [...projectIds])
          .execute();
  const comments =
    commentSeqs.length === 0
      ? []
      : await db
          .selectFrom('comments')
          .select(['seq', 'content'])
          .where('seq', 'in', [...commentSeqs])
          .execute();
  return {
    projects,
    comments: comments.map((comment) => ({ seq: Number(comment.seq), content: comment.content })),
  };
}
