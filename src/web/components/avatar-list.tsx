import { Avatar } from './avatar';
import './avatar-list.css';

interface AvatarListUser {
  id: string;
  displayName: string;
  photoURL: string;
}

export interface AvatarListProps {
  users: readonly AvatarListUser[];
  /** Width and height of each picture in CSS pixels. */
  size?: number;
  className?: string;
}

/**
 * A row of profile pictures standing alone (no names next to them): each picture's text alternative is the
 * user's display name, and a tooltip shows it to sighted mouse users.
 */
export function AvatarList({ users, size = 50, className }: AvatarListProps) {
  return (
    <ul className={className ? `avatar-list ${className}` : 'avatar-list'}>
      {users.map((user) => (
        <li key={user.id} className="avatar-list-item" title={user.displayName}>
          <Avatar src={user.photoURL} name={user.displayName} size={size} />
        </li>
      ))}
    </ul>
  );
}
