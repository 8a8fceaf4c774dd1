import { dueStatus, localToday } from '../../common';
import './due-status.css';

const LABELS = { overdue: 'Overdue', 'due-soon': 'Due soon' } as const;

/**
 * 'Overdue' or 'Due soon' (within 7 days) beside a due date: words and a colour, never colour alone.
 * Nothing for a date further out. Judged by the viewer's own calendar day.
 */
export function DueStatus({ dueDate, today = localToday() }: { dueDate: string; today?: string }) {
  const status = dueStatus(dueDate, today);
  if (status === 'later') return null;
  return <span className={`due-status due-status-${status}`}>{LABELS[status]}</span>;
}
