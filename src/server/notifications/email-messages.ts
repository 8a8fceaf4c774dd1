import {
  commentAnchor,
  NOTIFICATION_KIND_LABELS,
  notificationText,
  projectPath,
  type NotificationKind,
} from '../../common';
import type { MailableNotification } from './email-repository';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** RFC 8058 one-click unsubscribe address (one kind: a digest's first kind). */
  unsubscribeUrl: string;
}

export interface LinkBuilder {
  /** Absolute address of a path in the web app. */
  appUrl: (path: string) => string;
  /** Absolute one-click unsubscribe address for (user, kind). */
  unsubscribeUrl: (userId: string, kind: NotificationKind) => string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function linkOf(notification: MailableNotification, links: LinkBuilder): string {
  const path = projectPath(notification.projectId);
  return links.appUrl(
    notification.commentId ? `${path}#${encodeURIComponent(commentAnchor(notification.commentId))}` : path,
  );
}

/** What happened, as the bell's panel says it. */
function lineOf(notification: MailableNotification): string {
  return notificationText({
    kind: notification.kind,
    projectName: notification.projectName,
    actor: notification.actorName === null ? null : { displayName: notification.actorName },
  });
}

/** The unsubscribe link's words for one kind. */
const stopLine = (kind: NotificationKind): string =>
  `Stop emails for: ${NOTIFICATION_KIND_LABELS[kind].toLowerCase()}`;

/** One notification, one message. */
export function renderImmediate(notification: MailableNotification, links: LinkBuilder): RenderedEmail {
  const url = linkOf(notification, links);
  const unsubscribeUrl = links.unsubscribeUrl(notification.recipientId, notification.kind);
  const subject = lineOf(notification);
  const unsubscribeLine = `${stopLine(notification.kind)}: ${unsubscribeUrl}`;
  return {
    subject,
    unsubscribeUrl,
    text: `${lineOf(notification)}\n\nOpen the project: ${url}\n\n--\n${unsubscribeLine}\n`,
    html: page(
      escapeHtml(subject),
      `<p>${escapeHtml(lineOf(notification))}</p>
<p><a href="${escapeHtml(url)}">Open the project</a></p>`,
      unsubscribeLinks([notification], links),
    ),
  };
}

/** A day's digest-mode notifications for one user, in one message. */
export function renderDigest(
  notifications: MailableNotification[],
  day: string,
  links: LinkBuilder,
): RenderedEmail {
  const first = notifications[0]!;
  const subject =
    notifications.length === 1
      ? `Daily digest: ${lineOf(first)}`
      : `Daily digest: ${notifications.length} notifications (${day})`;
  const kinds = [...new Set(notifications.map((notification) => notification.kind))];
  const textLines = notifications.map(
    (notification) => `- ${lineOf(notification)}\n  ${linkOf(notification, links)}`,
  );
  const unsubscribeText = kinds
    .map((kind) => `${stopLine(kind)}: ${links.unsubscribeUrl(first.recipientId, kind)}`)
    .join('\n');
  return {
    subject,
    unsubscribeUrl: links.unsubscribeUrl(first.recipientId, first.kind),
    text: `Your notifications for ${day}:\n\n${textLines.join('\n')}\n\n--\n${unsubscribeText}\n`,
    html: page(
      escapeHtml(subject),
      `<p>Your notifications for ${escapeHtml(day)}:</p>
<ul>${notifications
        .map(
          (notification) =>
            `<li><a href="${escapeHtml(linkOf(notification, links))}">${escapeHtml(lineOf(notification))}</a></li>`,
        )
        .join('')}</ul>`,
      unsubscribeLinks(notifications, links),
    ),
  };
}

function unsubscribeLinks(notifications: MailableNotification[], links: LinkBuilder): string {
  const kinds = [...new Set(notifications.map((notification) => notification.kind))];
  const userId = notifications[0]!.recipientId;
  return kinds
    .map(
      (kind) =>
        `<a href="${escapeHtml(links.unsubscribeUrl(userId, kind))}">${escapeHtml(stopLine(kind))}</a>`,
    )
    .join(' · ');
}

function page(title: string, body: string, footer: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body>
${body}
<hr>
<p>${footer}</p>
</body></html>
`;
}

/** The page the unsubscribe address shows (GET: a button that posts; POST: the result). */
export function unsubscribePage(message: string, formAction?: string): string {
  const form = formAction
    ? `<form method="post" action="${escapeHtml(formAction)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Email notifications · The Dojo</title></head>
<body><main><h1>Email notifications</h1><p>${escapeHtml(message)}</p>${form}</main></body></html>
`;
}
