import { Link } from "@tanstack/react-router";

export function NotFound() {
  return (
    <div className="screen">
      <h1>Not found</h1>
      <p>
        There is no page here. <Link to="/">Convert a file</Link>.
      </p>
    </div>
  );
}
