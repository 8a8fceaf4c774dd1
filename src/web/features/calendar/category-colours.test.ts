// eslint-disable-next-line no-restricted-imports -- a test reads the shipped stylesheets' tokens, as text
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_CATEGORIES } from '../../../common';

/**
 * The category stripe beside a project's name in the calendar is a non-text graphic that tells categories
 * apart, so it needs 3:1 against what it sits on (WCAG 2.2 success criterion 1.4.11), in both themes. axe
 * does not check borders, hence this test over the stylesheets' own tokens.
 */

const stylesheet = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const calendarCss = stylesheet('./calendar.css');
const globalCss = stylesheet('../../app/global.css');

/** `light-dark(#light, #dark)` of a custom property: both written as hex colours. */
function lightDark(source: string, block: string, property: string): { light: string; dark: string } {
  const escaped = block.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rule = new RegExp(
    `${escaped}\\s*\\{[^}]*${property}:\\s*light-dark\\((#[0-9a-f]{3,6}),\\s*(#[0-9a-f]{3,6})\\)`,
    'i',
  );
  const match = rule.exec(source);
  if (!match?.[1] || !match[2]) throw new Error(`${block} has no ${property}: light-dark(#…, #…)`);
  return { light: match[1], dark: match[2] };
}

function channels(hex: string): [number, number, number] {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  return [0, 2, 4].map((start) => parseInt(full.slice(start, start + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
}

/** Relative luminance, as WCAG 2.2 defines it. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) =>
    value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4,
  ) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

describe('category colours of the calendar', () => {
  it('computes contrast as WCAG does', () => {
    expect(contrast('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrast('#777', '#fff')).toBeCloseTo(4.48, 2);
  });

  // Days of the month (--card-bg), days outside it (--panel-bg), the day's list (--card-bg).
  const backgrounds = ['--card-bg', '--panel-bg'].map((property) => ({
    property,
    ...lightDark(globalCss, ':root', property),
  }));

  it.each(PROJECT_CATEGORIES)(
    '%s has 3:1 or more against every calendar background, in both themes',
    (category) => {
      const colour = lightDark(calendarCss, `.calendar-category-${category}`, '--category-color');
      for (const background of backgrounds) {
        for (const theme of ['light', 'dark'] as const) {
          const ratio = contrast(colour[theme], background[theme]);
          expect(
            ratio,
            `${category} on ${background.property}, ${theme}: ${ratio.toFixed(2)}:1`,
          ).toBeGreaterThanOrEqual(3);
        }
      }
    },
  );
});
