import { AppearanceAnswerSchema, AppearanceSchema } from '../../common/appearance-schemas';
import { describeRoutes, jsonBody } from '../http/api-docs';

const mirrored =
  'The answer mirrors a pinned theme into the `dojo_theme` cookie (cleared for `system`), from which the server sets `data-theme` on the pages it sends, so the app has its colours from the first paint (docs/decisions/069-dark-theme-and-room-to-work.md).';

export const appearanceRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/account/appearance',
    tag: 'Account',
    summary: "The account's theme: system (follows the device), light or dark",
    description: mirrored,
    caller: 'member',
    response: { status: 200, description: 'The appearance', schema: AppearanceAnswerSchema },
  },
  {
    method: 'PUT',
    path: '/api/account/appearance',
    tag: 'Account',
    summary: 'Pins the theme (light, dark) or lets it follow the device (system)',
    description: `Kept on the account, so every device the member signs in on follows it. ${mirrored}`,
    caller: 'member',
    body: jsonBody(AppearanceSchema),
    response: { status: 200, description: 'The appearance saved', schema: AppearanceAnswerSchema },
  },
]);
