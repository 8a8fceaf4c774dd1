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
 * A row of profile pictures without visible names. Each name is text in the list (read as a list of names,
 * found by searching the page, kept when pictures are off), so the picture itself is decorative; a tooltip
 * still shows the name to sighted mouse users.
 */
export function AvatarList({ users, size = 50, className }: AvatarListProps) {
  return (
    <ul className={className ? `avatar-list ${className}` : 'avatar-list'}>
      {users.map((user) => (
        <li key={user.id} className="avatar-list-item" title={user.displayName}>
          <Avatar src={user.photoURL} name={user.displayName} size={size} decorative />
          <span className="visually-hidden">{user.displayName}</span>
        </li>
      ))}
    </ul>
  );
}
