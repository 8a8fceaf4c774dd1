import { describe, expect, it } from 'vitest';
import { highlightRanges, messages, type CreateProjectInput, type SearchResult } from '../../common';
import { tomorrow } from '../../../test/support/clients';
import { useTestTeam } from '../../../test/support/test-team';
import { openDatabase } from '../db/database';

const team = useTestTeam({ alice: 'Alice', bob: 'Bob' });

// Words no other file's projects hold, so results are only this file's.
const tag = `zq${Math.random().toString(36).slice(2, 8)}`;

const project = (name: string, details: string): CreateProjectInput => ({
  name,
  details,
  dueDate: tomorrow(),
  category: 'development',
  assignedUserIds: [team.alice.user.uid],
});

const search = (q: string, client = team.bob): Promise<SearchResult[]> => client.client.projects.search(q);
const ids = (results: SearchResult[]) => results.map((result) => result.id);

async function rawSearch(query: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${team.server.url}/api/search?${query}`, { headers });
}

describe('GET /api/search', () => {
  it('ranks a name match above a details-only match, and says which field matched', async () => {
    const inDetails = await team.alice.client.projects.create(
      project(`Quarterly report ${tag}a`, `Collect the figures for the lighthouse${tag} review.`),
    );
    const inName = await team.alice.client.projects.create(
      project(`Lighthouse${tag} migration`, 'Move every service to the new cluster.'),
    );
    const results = await search(`lighthouse${tag}`);
    expect(ids(results)).toEqual([inName.id, inDetails.id]);
    expect(results[0]).toMatchObject({
      name: inName.name,
      field: 'name',
      snippet: inName.name,
      category: 'development',
    });
    expect(results[1]).toMatchObject({ field: 'details' });
    expect(results[1]?.snippet).toContain(`lighthouse${tag}`);
  });

  it('ignores case and accents both ways, and matches the last word as a prefix', async () => {
    const jose = await team.alice.client.projects.create(project(`Visit José ${tag}b`, 'Café in São Paulo.'));
    expect(ids(await search(`jose ${tag}b`))).toEqual([jose.id]);
    expect(ids(await search(`JOSÉ ${tag}B`))).toEqual([jose.id]);
    expect(ids(await search(`sao paulo ${tag}`))).toContain(jose.id);
    expect(ids(await search(`${tag}b cafe`))).toEqual([jose.id]);
    // As you type: the last word is a prefix, the others are whole words.
    expect(ids(await search(`${tag}b vis`))).toEqual([jose.id]);
    expect(ids(await search(`vis ${tag}b`))).toEqual([]);
    // Every word must be there.
    expect(ids(await search(`jose ${tag}b nowhere${tag}`))).toEqual([]);
    const [result] = await search(`jose ${tag}b`);
    const snippet = result?.snippet ?? '';
    expect(
      highlightRanges(snippet, `jose ${tag}b`).map(({ start, end }) => snippet.slice(start, end)),
    ).toEqual(['José', `${tag}b`]);
  });

  it('finds words of comments, as soon as the comment is added, with the comment as the snippet', async () => {
    const target = await team.alice.client.projects.create(
      project(`Plain name ${tag}c`, 'Nothing special here.'),
    );
    expect(await search(`pineapple${tag}`)).toEqual([]);
    await team.bob.client.projects.addComment(target.id, {
      content: `We should order the Pineapple${tag} pizza.`,
    });
    const results = await search(`pineapple${tag} pizza`);
    expect(results).toEqual([
      {
        id: target.id,
        name: target.name,
        category: 'development',
        field: 'comment',
        snippet: `We should order the Pineapple${tag} pizza.`,
        completed: false,
      },
    ]);
  });

  it('ranks a project whose name matches above one where only a comment does', async () => {
    const byComment = await team.alice.client.projects.create(project(`Other ${tag}d`, 'Unrelated.'));
    await team.alice.client.projects.addComment(byComment.id, { content: `the walrus${tag} again` });
    const byName = await team.alice.client.projects.create(project(`Walrus${tag} feeding`, 'Fish.'));
    expect(ids(await search(`walrus${tag}`))).toEqual([byName.id, byComment.id]);
  });

  it('keeps a completed project, marked, and forgets one deleted for good with its comments', async () => {
    const done = await team.alice.client.projects.create(project(`Finished ${tag}e`, `Details ${tag}e`));
    await team.alice.client.projects.addComment(done.id, { content: `comment ${tag}e` });
    expect(await search(`${tag}e`)).toMatchObject([{ id: done.id, completed: false }]);
    await team.alice.client.projects.complete(done.id);
    expect(await search(`${tag}e`)).toMatchObject([{ id: done.id, completed: true }]);
    expect(await search(`comment ${tag}e`)).toMatchObject([
      { id: done.id, field: 'comment', completed: true },
    ]);
    await team.alice.client.projects.deleteForGood(done.id);
    expect(await search(`${tag}e`)).toEqual([]);
    expect(await search(`comment ${tag}e`)).toEqual([]);
  });

  it('follows an edit of the project through the API', async () => {
    const edited = await team.alice.client.projects.create(
      project(`Draft title ${tag}i`, `Old words ${tag}i`),
    );
    await team.alice.client.projects.update(edited.id, {
      ...project(`Final title ${tag}i`, `New words ${tag}i`),
      version: 1,
    });
    expect(await search(`draft title ${tag}i`)).toEqual([]);
    expect(await search(`old words ${tag}i`)).toEqual([]);
    expect(await search(`final ${tag}i`)).toMatchObject([{ id: edited.id, field: 'name' }]);
    expect(await search(`new words ${tag}i`)).toMatchObject([{ id: edited.id, field: 'details' }]);
  });

  it('follows edits and deletions made by any write, through the triggers (plain SQL)', async () => {
    // Project edits and comment edits and deletions come with other parts of issue 12; the index follows
    // the rows whoever writes them, so plain SQL stands in for those services here.
    const edited = await team.alice.client.projects.create(project(`Before ${tag}h`, `Old details ${tag}h`));
    const comment = await team.alice.client.projects.addComment(edited.id, { content: `old remark ${tag}h` });
    const database = await openDatabase({
      dataDir: team.server.dataDir,
      databaseUrl: team.server.databaseUrl,
    });
    try {
      const { db } = database;
      await db
        .updateTable('projects')
        .set({ name: `After ${tag}h`, details: `New text ${tag}h` })
        .where('id', '=', edited.id)
        .execute();
      expect(await search(`before ${tag}h`)).toEqual([]);
      expect(await search(`old details ${tag}h`)).toEqual([]);
      expect(ids(await search(`after ${tag}h`))).toEqual([edited.id]);
      expect(ids(await search(`new text ${tag}h`))).toEqual([edited.id]);

      await db
        .updateTable('comments')
        .set({ content: `fresh remark ${tag}h` })
        .where('id', '=', comment.id)
        .execute();
      expect(await search(`old remark ${tag}h`)).toEqual([]);
      expect(await search(`fresh remark ${tag}h`)).toMatchObject([{ id: edited.id, field: 'comment' }]);

      await db.deleteFrom('comments').where('id', '=', comment.id).execute();
      expect(await search(`fresh remark ${tag}h`)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('takes odd input as plain words, never as syntax', async () => {
    const odd = await team.alice.client.projects.create(project(`Odd ${tag}f NEAR OR AND NOT`, 'x'));
    for (const q of [
      '"',
      '*',
      'OR',
      '-',
      ':',
      '"unterminated',
      `${tag}f*`,
      `-${tag}f`,
      `${tag}f:*`,
      `(${tag}f`,
      `'${tag}f'`,
      '\\',
      '&|!<->',
      'NEAR(a b)',
      '^x',
      '{a b}',
    ]) {
      const response = await rawSearch(`q=${encodeURIComponent(q)}`, {
        cookie: team.bob.client.transport.cookieHeader() ?? '',
      });
      expect(response.status, q).toBe(200);
    }
    expect(ids(await search(`${tag}f OR`))).toEqual([odd.id]);
    expect(ids(await search(`"${tag}f" NOT`))).toEqual([odd.id]);
    expect(ids(await search(`${tag}f*`))).toEqual([odd.id]);
    expect(await search('***')).toEqual([]);
  });

  it('takes a limit', async () => {
    for (const letter of ['1', '2', '3']) {
      await team.alice.client.projects.create(project(`Many ${tag}g${letter}`, `Same words ${tag}many`));
    }
    expect(await search(`${tag}many`)).toHaveLength(3);
    expect(await team.bob.client.projects.search(`${tag}many`, { limit: 2 })).toHaveLength(2);
    const tooMany = await rawSearch(`q=x&limit=51`, {
      cookie: team.bob.client.transport.cookieHeader() ?? '',
    });
    expect(tooMany.status).toBe(400);
  });

  it('answers 401 to anyone not signed in', async () => {
    const response = await rawSearch('q=anything');
    expect(response.status).toBe(401);
  });

  it('answers 400 to an empty or too long query', async () => {
    const cookie = team.bob.client.transport.cookieHeader() ?? '';
    for (const query of ['', 'q=', 'q=%20%20']) {
      const response = await rawSearch(query, { cookie });
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { error: { message: string; fields?: Record<string, string> } };
      expect(body.error.fields?.q ?? body.error.message).toBe(messages.searchQueryRequired);
    }
    const long = await rawSearch(`q=${'a'.repeat(201)}`, { cookie });
    expect(long.status).toBe(400);
    const body = (await long.json()) as { error: { fields?: Record<string, string> } };
    expect(body.error.fields?.q).toBe(messages.searchQueryTooLong);
  });
});
