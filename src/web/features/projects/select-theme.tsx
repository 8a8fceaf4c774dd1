import { components, type GroupBase, type InputProps, type StylesConfig, type Theme } from 'react-select';
import type { FieldControl } from '../../components/field';

/**
 * react-select in The Dojo's colours, with WCAG AA contrast: its default greys (#808080 placeholder, #999
 * messages, #ccc outline and arrows) are too light on white. Colours are the app's CSS variables.
 */
function selectTheme(theme: Theme): Theme {
  return {
    ...theme,
    colors: {
      ...theme.colors,
      // Focused outline and the selected option (its text is neutral0: 5.62:1 light, 5.8:1 dark).
      primary: 'var(--primary-color)',
      primary75: 'var(--primary-soft-border)',
      // Pressed option and the option under the pointer or keyboard (dark text on them).
      primary50: 'var(--primary-soft-strong)',
      primary25: 'var(--primary-soft)',
      danger: 'var(--error-color)',
      dangerLight: 'var(--error-bg)',
      // The control's and the menu's background, and a disabled control's, in the page's theme.
      neutral0: 'var(--card-bg)',
      neutral5: 'var(--panel-bg)',
      neutral10: 'var(--primary-soft)',
      // Outline, arrows and separator: 3.45:1 against white (1.4.11 needs 3:1).
      neutral20: 'var(--input-border)',
      neutral30: 'var(--text-muted)',
      // Placeholder 'Select...', 'No options', 'Loading...': 5.33:1.
      neutral40: 'var(--text-muted)',
      neutral50: 'var(--text-muted)',
      neutral60: 'var(--heading-color)',
      neutral80: 'var(--text-color)',
    },
  };
}

/** Styles beyond the theme: a focus ring as strong as the other inputs', and the error state. */
function selectStyles<Option, IsMulti extends boolean>(
  invalid: boolean,
): StylesConfig<Option, IsMulti, GroupBase<Option>> {
  return {
    control: (base, state) => ({
      ...base,
      minHeight: 42,
      borderColor: invalid
        ? 'var(--error-color)'
        : state.isFocused
          ? 'var(--focus-ring)'
          : 'var(--input-border)',
      boxShadow: state.isFocused ? '0 0 0 2px var(--focus-ring)' : 'none',
      '&:hover': {
        borderColor: invalid
          ? 'var(--error-color)'
          : state.isFocused
            ? 'var(--focus-ring)'
            : 'var(--text-muted)',
      },
    }),
    multiValue: (base) => ({ ...base, backgroundColor: 'var(--primary-soft)' }),
    multiValueLabel: (base) => ({ ...base, color: 'var(--text-strong)', fontSize: '90%' }),
    multiValueRemove: (base) => ({ ...base, color: 'var(--text-color)' }),
    menu: (base) => ({ ...base, zIndex: 5 }),
  };
}

/**
 * react-select's input, also described by the field's error message. The message's id travels in the
 * `aria-errormessage` prop; it is moved into `aria-describedby` (next to react-select's own description),
 * which every screen reader reads when the control gets focus.
 */
function DescribedInput<Option, IsMulti extends boolean>(
  props: InputProps<Option, IsMulti, GroupBase<Option>>,
) {
  const errorId = props.selectProps['aria-errormessage'];
  const describedBy = [props['aria-describedby'], errorId].filter(Boolean).join(' ') || undefined;
  return <components.Input {...props} aria-errormessage={undefined} aria-describedby={describedBy} />;
}

/** The props every select of a form shares: the app's theme, and its field's id, error state and message. */
export function selectControlProps<Option, IsMulti extends boolean>({ id, invalid, errorId }: FieldControl) {
  return {
    inputId: id,
    components: { Input: DescribedInput<Option, IsMulti> },
    theme: selectTheme,
    styles: selectStyles<Option, IsMulti>(invalid),
    'aria-invalid': invalid,
    'aria-errormessage': errorId,
  };
}
