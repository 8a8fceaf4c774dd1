import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../common';
import {
  addDays,
  CALENDAR_SHAPE,
  calendarMessages,
  calendarQuery,
  type CalendarProject,
} from '../../common/calendar';
import {
  createProjectAs,
  errorOf,
  LiveRecorder,
  signUpClient,
  type SignedInClient,
} from '../../../test/support/clients';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

/**
 * The calendar's range query (docs/decisions/067-live-calendar.md): the live target of the projects due in
 * [from, to) under a dashboard filter, and the same range over HTTP. A far-future month keeps this file's
 * projects apart from whatever else the server holds.
 */
const FROM = '2031-03-01';
const TO = '2031-04-01';

const idsOf = (docs: readonly { id: string }[]) => docs.map((project) => project.id);

/** Exactly the fields of the calendar's slim shape (src/common/calendar.ts). */
const SLIM_FIELDS = ['assignees', 'category', 'completed', 'createdById', 'dueDate', 'id', 'name', 'version'];

describe('calendar range query', () => {
  let server: TestServer;
  let ada: SignedInClient;
  let ben: SignedInClient;

  beforeAll(async () => {
    server = await startTestServer();
    ada = await signUpClient(server.url, 'Ada');
    ben = await signUpClient(server.url, 'Ben');
  });
  afterAll(async () => {
    ada.client.close();
    ben.client.close();
    await server.stop();
  });

  it('keeps exactly the projects due in [from, to), soonest first, live and over HTTP', async () => {
    const before = await createProjectAs(ben, { name: 'Day before', dueDate: addDays(FROM, -1) });
    const first = await createProjectAs(ben, { name: 'First day', dueDate: FROM });
    const last = await createProjectAs(ben, { name: 'Last day', dueDate: addDays(TO, -1) });
    const after = await createProjectAs(ben, { name: 'Day after', dueDate: TO });
    const live = new LiveRecorder<CalendarProject>(ada.client, calendarQuery('all', ada.user.uid, FROM, TO));
    try {
      const docs = await live.until(() => true);
      expect(idsOf(docs)).toEqual([first.id, last.id]);
      const page = await ada.client.transport.request<{ projects: Project[] }>(
        'GET',
        `/api/projects?sort=dueDate&dueFrom=${FROM}&dueBefore=${TO}&limit=100`,
      );
      expect(idsOf(page.projects)).toEqual([first.id, last.id]);
      expect(idsOf(docs)).not.toContain(before.id);
      expect(idsOf(docs)).not.toContain(after.id);
    } finally {
      live.unsubscribe();
    }
  });

  it('sends the slim shape: exactly its fields, the same projects as whole ones, live changes slim too', async () => {
    const cy = await signUpClient(server.url, 'Cy');
    const di = await signUpClient(server.url, 'Di');
    const team = [ada, ben, cy, di].map((member) => member.user.uid);
    const project = await createProjectAs(ben, {
      name: 'Slim one',
      details: 'Long details the calendar never draws. '.repeat(20),
      dueDate: '2031-03-12',
      assignedUserIds: team,
    });
    const slimTarget = calendarQuery('all', ada.user.uid, FROM, TO);
    expect(slimTarget.shape).toBe(CALENDAR_SHAPE);
    const { shape: _whole, ...wholeTarget } = slimTarget;
    const slim = new LiveRecorder<CalendarProject>(ada.client, slimTarget);
    const whole = new LiveRecorder<Project>(ada.client, wholeTarget);
    try {
      const slimDocs = await slim.until((docs) => idsOf(docs).includes(project.id));
      const wholeDocs = await whole.until((docs) => idsOf(docs).includes(project.id));
      // The same read: the same projects in the same order, only fewer fields.
      expect(idsOf(slimDocs)).toEqual(idsOf(wholeDocs));
      for (const doc of slimDocs) expect(Object.keys(doc).sort()).toEqual(SLIM_FIELDS);
      const full = wholeDocs.find((doc) => doc.id === project.id);
      expect(slimDocs.find((doc) => doc.id === project.id)).toEqual({
        id: project.id,
        name: 'Slim one',
        dueDate: '2031-03-12',
        category: project.category,
        completed: false,
        assignees: full?.assignedUsersList.slice(0, 3),
        createdById: ben.user.uid,
        version: project.version,
      });
      expect(full?.assignedUsersList.map((user) => user.id)).toEqual(team);

      // An edit anywhere arrives slim, with the version a move must send.
      const renamed = await ben.client.projects.update(project.id, {
        name: 'Slim one, renamed',
        details: project.details,
        dueDate: project.dueDate,
        category: project.category,
        assignedUserIds: project.assignedUserIds,
        version: project.version,
      });
      const after = await slim.until(
        (docs) => docs.find((doc) => doc.id === project.id)?.name === 'Slim one, renamed',
        undefined,
        'the rename, slim',
      );
      const moved = after.find((doc) => doc.id === project.id);
      expect(Object.keys(moved ?? {}).sort()).toEqual(SLIM_FIELDS);
      expect(moved?.version).toBe(renamed.version);

      // Completed projects come in the same shape, marked completed.
      await ben.client.projects.complete(project.id);
      const done = new LiveRecorder<CalendarProject>(
        ada.client,
        calendarQuery('all', ada.user.uid, FROM, TO, { completed: true }),
      );
      try {
        const doneDocs = await done.until((docs) => idsOf(docs).includes(project.id));
        expect(doneDocs.find((doc) => doc.id === project.id)).toMatchObject({ completed: true });
        for (const doc of doneDocs) expect(Object.keys(doc).sort()).toEqual(SLIM_FIELDS);
      } finally {
        done.unsubscribe();
      }
    } finally {
      slim.unsubscribe();
      whole.unsubscribe();
      cy.client.close();
      di.client.close();
    }
  });

  it('refuses a shape it does not know with a 400 that says which it knows', async () => {
    const live = new LiveRecorder<CalendarProject>(ada.client, {
      ...calendarQuery('all', ada.user.uid, FROM, TO),
      shape: 'summary',
    });
    try {
      await expect
        .poll(() => live.error ?? (live.docs ? 'snapshot' : undefined))
        .toMatchObject({ code: 'invalid-argument', message: calendarMessages.unknownShape });
    } finally {
      live.unsubscribe();
    }
  });

  it('applies the dashboard filters: mine and a category', async () => {
    const adasDesign = await createProjectAs(ben, {
      name: 'For Ada',
      dueDate: '2031-03-10',
      category: 'design',
      assignedUserIds: [ada.user.uid],
    });
    const bensSales = await createProjectAs(ben, {
      name: 'For Ben',
      dueDate: '2031-03-10',
      category: 'sales',
      assignedUserIds: [ben.user.uid],
    });
    const mine = new LiveRecorder<CalendarProject>(ada.client, calendarQuery('mine', ada.user.uid, FROM, TO));
    const sales = new LiveRecorder<CalendarProject>(
      ada.client,
      calendarQuery('sales', ada.user.uid, FROM, TO),
    );
    try {
      const mineDocs = await mine.until(() => true);
      expect(idsOf(mineDocs)).toContain(adasDesign.id);
      expect(idsOf(mineDocs)).not.toContain(bensSales.id);
      const salesDocs = await sales.until(() => true);
      expect(idsOf(salesDocs)).toContain(bensSales.id);
      expect(idsOf(salesDocs)).not.toContain(adasDesign.id);
    } finally {
      mine.unsubscribe();
      sales.unsubscribe();
    }
  });

  it('a project moves in and out of the range live: created, moved, completed, reopened', async () => {
    const live = new LiveRecorder<CalendarProject>(ada.client, calendarQuery('all', ada.user.uid, FROM, TO));
    try {
      await live.until(() => true);
      const outside = await createProjectAs(ben, { name: 'Moving', dueDate: '2031-05-02' });
      const created = await createProjectAs(ben, { name: 'Created inside', dueDate: '2031-03-20' });
      await live.until((docs) => idsOf(docs).includes(created.id), undefined, 'the new project');
      expect(idsOf(live.docs ?? [])).not.toContain(outside.id);

      const move = (project: Project, dueDate: string) =>
        ben.client.projects.update(project.id, {
          name: project.name,
          details: project.details,
          dueDate,
          category: project.category,
          assignedUserIds: project.assignedUserIds,
          version: project.version,
        });
      const movedIn = await move(outside, '2031-03-05');
      await live.until(
        (docs) => docs.find((doc) => doc.id === outside.id)?.dueDate === '2031-03-05',
        undefined,
        'the project moved in',
      );
      await move(movedIn, '2031-04-05');
      await live.until((docs) => !idsOf(docs).includes(outside.id), undefined, 'the project moved out');

      await ben.client.projects.complete(created.id);
      await live.until((docs) => !idsOf(docs).includes(created.id), undefined, 'the completed project gone');
      await ben.client.projects.reopen(created.id);
      await live.until((docs) => idsOf(docs).includes(created.id), undefined, 'the reopened project back');
    } finally {
      live.unsubscribe();
    }
  });

  it('shows completed projects apart, under the same range and filters, live as they complete and reopen', async () => {
    const day = '2031-03-25';
    const done = await createProjectAs(ben, { name: 'Done', dueDate: day, category: 'sales' });
    const open = await createProjectAs(ben, { name: 'Still open', dueDate: day, category: 'sales' });
    const doneOutside = await createProjectAs(ben, { name: 'Done later', dueDate: '2031-04-02' });
    const doneOtherCategory = await createProjectAs(ben, {
      name: 'Done design',
      dueDate: day,
      category: 'design',
    });
    for (const project of [done, doneOutside, doneOtherCategory])
      await ben.client.projects.complete(project.id);
    const completed = new LiveRecorder<CalendarProject>(
      ada.client,
      calendarQuery('sales', ada.user.uid, FROM, TO, { completed: true }),
    );
    const openOnes = new LiveRecorder<CalendarProject>(
      ada.client,
      calendarQuery('sales', ada.user.uid, FROM, TO),
    );
    try {
      const docs = await completed.until(() => true);
      expect(idsOf(docs)).toContain(done.id);
      for (const id of [open.id, doneOutside.id, doneOtherCategory.id]) expect(idsOf(docs)).not.toContain(id);
      expect(idsOf(await openOnes.until(() => true))).not.toContain(done.id);

      // Reopened anywhere: it leaves the completed range and joins the open one, live.
      await ben.client.projects.reopen(done.id);
      await completed.until((now) => !idsOf(now).includes(done.id), undefined, 'the reopened project gone');
      await openOnes.until((now) => idsOf(now).includes(done.id), undefined, 'the reopened project open');
      // Completed again: back the other way.
      await ben.client.projects.complete(open.id);
      await completed.until((now) => idsOf(now).includes(open.id), undefined, 'the completed project shown');
      await openOnes.until((now) => !idsOf(now).includes(open.id), undefined, 'the completed project gone');
    } finally {
      completed.unsubscribe();
      openOnes.unsubscribe();
    }
  });

  it('reads completed projects only by a bounded range: anything else is a 400', async () => {
    const targets = [
      {
        ...calendarQuery('all', ada.user.uid, FROM, TO),
        where: [{ field: 'completed', op: '==' as const, value: true }],
      },
      calendarQuery('all', ada.user.uid, '2031-03-01', '2031-05-01', { completed: true }),
      {
        ...calendarQuery('all', ada.user.uid, FROM, TO),
        where: [
          { field: 'dueDate', op: '>=' as const, value: FROM },
          { field: 'dueDate', op: '<' as const, value: TO },
          { field: 'completed', op: '==' as const, value: false },
        ],
      },
    ];
    for (const target of targets) {
      const live = new LiveRecorder<CalendarProject>(ada.client, target);
      try {
        await expect
          .poll(() => live.error ?? (live.docs ? 'snapshot' : undefined))
          .toMatchObject({ code: 'invalid-argument' });
      } finally {
        live.unsubscribe();
      }
    }
  });

  it('refuses ranges that are not whole, bounded day ranges, live and over HTTP, with a clear 400', async () => {
    const bad: [from: string, to: string, message: string][] = [
      ['2031-03-01', '2031-05-01', calendarMessages.rangeTooLong],
      ['2031-03-10', '2031-03-10', calendarMessages.rangeBackwards],
      ['2031-02-30', '2031-03-10', calendarMessages.rangeNotDays],
      ['tomorrow', '2031-03-10', calendarMessages.rangeNotDays],
    ];
    for (const [from, to, message] of bad) {
      const live = new LiveRecorder<CalendarProject>(
        ada.client,
        calendarQuery('all', ada.user.uid, from, to),
      );
      try {
        await expect
          .poll(() => live.error ?? (live.docs ? 'snapshot' : undefined))
          .toMatchObject({ code: 'invalid-argument' });
      } finally {
        live.unsubscribe();
      }
      const error = await errorOf(() =>
        ada.client.transport.request('GET', `/api/projects?dueFrom=${from}&dueBefore=${to}`),
      );
      expect(error.status).toBe(400);
      expect(error.fields).toMatchObject({ dueFrom: message });
    }
    const half = await errorOf(() => ada.client.transport.request('GET', `/api/projects?dueFrom=${FROM}`));
    expect(half.fields).toMatchObject({ dueFrom: calendarMessages.rangeHalf });
    const open = new LiveRecorder<CalendarProject>(ada.client, {
      ...calendarQuery('all', ada.user.uid, FROM, TO),
      where: [{ field: 'dueDate', op: '>=', value: FROM }],
    });
    try {
      await expect
        .poll(() => open.error ?? (open.docs ? 'snapshot' : undefined))
        .toMatchObject({ code: 'invalid-argument' });
    } finally {
      open.unsubscribe();
    }
  });

  it('no signed-out caller reads the range', async () => {
    const stranger = await signUpClient(server.url, 'Stranger');
    await stranger.client.auth.logOut();
    const error = await errorOf(() =>
      stranger.client.transport.request('GET', `/api/projects?dueFrom=${FROM}&dueBefore=${TO}`),
    );
    expect(error.status).toBe(401);
    stranger.client.close();
  });
});
