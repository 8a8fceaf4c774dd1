import { Link } from 'react-router';
import { CLIENT_ROUTES } from '../../common';
import { useDocumentTitle } from '../hooks/use-document-title';
import { PageTitle } from '../components/page-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="not-found">
      <PageTitle>Page not found</PageTitle>
      <p>There is nothing at this address.</p>
      <p>
        <Link to={CLIENT_ROUTES.dashboard}>Go to the Dashboard</Link>
      </p>
    </div>
  );
}
