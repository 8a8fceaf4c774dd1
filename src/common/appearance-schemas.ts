import { z } from 'zod/mini';
import { appearanceMessages, THEMES, type Appearance } from './appearance';

/** What PUT /api/account/appearance accepts; apart from appearance.ts so the theme sync never loads zod. */
export const AppearanceSchema = z.object({
  theme: z.enum(THEMES, { error: appearanceMessages.themeInvalid }),
}) satisfies z.ZodMiniType<Appearance>;

export const AppearanceAnswerSchema = z.object({ appearance: AppearanceSchema });
