import { Link } from 'react-router';
import { useDocumentTitle } from './use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="not-found">
      <h2 className="page-title">Page not found</h2>
      <p>There is nothing at this address.</p>
      <p>
        <Link to="/">Go to the Dashboard</Link>
      </p>
    </div>
  );
}
