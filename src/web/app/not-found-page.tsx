import { Link } from 'react-router';
import { CLIENT_ROUTES } from '../../common';
import { useDocumentTitle } from '../hooks/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="not-found">
      <h2 className="page-title">Page not found</h2>
      <p>There is nothing at this address.</p>
      <p>
        <Link to={CLIENT_ROUTES.dashboard}>Go to the Dashboard</Link>
      </p>
    </div>
  );
}
