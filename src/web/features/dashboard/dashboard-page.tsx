import { messages } from '../../../common';
import { useDocumentTitle } from '../../app/use-document-title';

// PLACEHOLDER (issue "Foundation"): the real dashboard (filter bar, live project list) comes with issue 3.
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  return (
    <div className="dashboard">
      <h2 className="page-title">Dashboard</h2>
      <p>{messages.noProjects}</p>
    </div>
  );
}
