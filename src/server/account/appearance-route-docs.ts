import { AppearanceAnswerSchema, AppearanceSchema } from '../../common/appearance-schemas';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { onOwnAccount } from '../http/route-doc-builders';

const mirrored =
  'The answer mirrors the theme into the `dojo_theme` cookie (as every sign-in does), from which the server sets `data-theme` on the pages it sends for a pinned one, so the app has its colours from the first paint (docs/decisions/069-dark-theme-and-room-to-work.md, docs/decisions/071-calendar-and-theme-follow-ups.md).';

export const appearanceRouteDocs = describeRoutes([
  onOwnAccount({
    method: 'GET',
    path: '/api/account/appearance',
    summary: "The account's theme: system (follows the device), light or dark",
    description: mirrored,
    response: { status: 200, description: 'The appearance', schema: AppearanceAnswerSchema },
  }),
  onOwnAccount({
    method: 'PUT',
    path: '/api/account/appearance',
    summary: 'Pins the theme (light, dark) or lets it follow the device (system)',
    description: `Kept on the account, so every device the member signs in on follows it. ${mirrored}`,
    body: jsonBody(AppearanceSchema),
    response: { status: 200, description: 'The appearance saved', schema: AppearanceAnswerSchema },
  }),
]);
