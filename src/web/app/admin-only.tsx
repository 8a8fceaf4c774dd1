import { Link } from 'react-router';
import { CLIENT_ROUTES } from '../../common';
import { useDocumentTitle } from '../hooks/use-document-title';
import { PageTitle } from '../components/page-title';

/** What a member sees at an admin screen's address (the server refuses the admin calls anyway). */
export function AdminOnly() {
  useDocumentTitle('Admins only');
  return (
    <div className="not-found">
      <PageTitle>Admins only</PageTitle>
      <p>Only admins can see this page.</p>
      <p>
        <Link to={CLIENT_ROUTES.dashboard}>Go to the Dashboard</Link>
      </p>
    </div>
  );
}
