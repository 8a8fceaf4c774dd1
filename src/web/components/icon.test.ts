// @vitest-environment happy-dom
import { createElement } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Icon, type IconName } from './icon';

const NAMES: IconName[] = ['temple', 'dashboard', 'plus', 'users', 'mail', 'check', 'bell', 'calendar'];

function svgOf(props: Parameters<typeof Icon>[0]): SVGSVGElement {
  const { container } = render(createElement(Icon, props));
  const svg = container.querySelector('svg');
  if (!svg) throw new Error('no svg rendered');
  return svg;
}

describe('Icon', () => {
  afterEach(cleanup);

  it('is decorative by default: hidden from assistive technology and never focused', () => {
    for (const name of NAMES) {
      const svg = svgOf({ name });
      expect(svg.getAttribute('aria-hidden')).toBe('true');
      expect(svg.getAttribute('focusable')).toBe('false');
      expect(svg.hasAttribute('role')).toBe(false);
      expect(svg.hasAttribute('aria-label')).toBe(false);
      expect(svg.querySelectorAll('path').length).toBeGreaterThan(0);
      cleanup();
    }
  });

  it('is an image named by its label when it stands alone', () => {
    svgOf({ name: 'bell', label: 'Notifications' });
    const image = screen.getByRole('img', { name: 'Notifications' });
    expect(image.hasAttribute('aria-hidden')).toBe(false);
  });

  it('draws an outline icon in currentColor, two units wide with round ends', () => {
    const svg = svgOf({ name: 'plus' });
    expect(svg.getAttribute('fill')).toBe('none');
    expect(svg.getAttribute('stroke')).toBe('currentColor');
    expect(svg.getAttribute('stroke-width')).toBe('2');
    expect(svg.getAttribute('stroke-linecap')).toBe('round');
    expect(svg.getAttribute('viewBox')).toBe('0 0 24 24');
  });

  it('fills a filled icon with currentColor and no outline', () => {
    const svg = svgOf({ name: 'bell' });
    expect(svg.getAttribute('fill')).toBe('currentColor');
    expect(svg.hasAttribute('stroke')).toBe(false);
  });

  it("takes the icon's own size unless given one, and the caller's class", () => {
    expect(svgOf({ name: 'temple' }).getAttribute('width')).toBe('36');
    cleanup();
    expect(svgOf({ name: 'bell' }).getAttribute('height')).toBe('20');
    cleanup();
    const sized = svgOf({ name: 'mail', size: 16, className: 'sidebar-icon' });
    expect([sized.getAttribute('width'), sized.getAttribute('height')]).toEqual(['16', '16']);
    expect(sized.getAttribute('class')).toBe('sidebar-icon');
  });
});
