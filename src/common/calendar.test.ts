import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  calendarMessages,
  calendarRangeProblem,
  dayName,
  monthGridRange,
  weekStart,
} from './calendar';

describe('calendar days', () => {
  it('counts days across months, years and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2031-12-31', 1)).toBe('2032-01-01');
    expect(addDays('2031-03-01', -1)).toBe('2031-02-28');
    expect(addMonths('2031-01-31', 1)).toBe('2031-02-01');
  });

  it('starts weeks on Monday and grids a month in whole weeks', () => {
    expect(weekStart('2031-03-09')).toBe('2031-03-03'); // a Sunday
    expect(weekStart('2031-03-03')).toBe('2031-03-03'); // a Monday
    // March 2031 starts on a Saturday and ends on a Monday: six weeks.
    expect(monthGridRange('2031-03-14')).toEqual({ from: '2031-02-24', to: '2031-04-07' });
    // February 2027 starts on a Monday and ends on a Sunday: exactly four weeks.
    expect(monthGridRange('2027-02-10')).toEqual({ from: '2027-02-01', to: '2027-03-01' });
    expect(dayName('2031-03-10')).toBe('Monday, March 10, 2031');
  });

  it('allows whole ranges of 1 to 42 days only', () => {
    expect(calendarRangeProblem('2031-02-24', '2031-04-07')).toBeNull();
    expect(calendarRangeProblem('2031-03-01', '2031-03-02')).toBeNull();
    expect(calendarRangeProblem('2031-03-01', '2031-04-13')).toBe(calendarMessages.rangeTooLong);
    expect(calendarRangeProblem('2031-03-02', '2031-03-01')).toBe(calendarMessages.rangeBackwards);
    expect(calendarRangeProblem('2031-02-29', '2031-03-05')).toBe(calendarMessages.rangeNotDays);
  });
});
