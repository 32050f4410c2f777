/** The first thing a newcomer reads on Convert, before a file is chosen: what this does and which formats it takes. */
import { useCatalog } from "../../tools/use-catalog";
import { formatsByFamily } from "./formats-by-family";

export function Intro() {
  const { tools } = useCatalog();
  const families = formatsByFamily(tools);
  return (
    <section aria-labelledby="intro-title" className="card intro">
      <h2 id="intro-title">Work with engineering files here</h2>
      <p>
        Drop files anywhere on this page, or choose them below. Most tools run right here in your browser, so your files stay on this device; big files and a few tools run on
        the server when you are signed in.
      </p>
      {families.length ? (
        <dl aria-label="Supported formats" className="formats">
          {families.map((f) => (
            <div key={f.family}>
              <dt>{f.title}</dt>
              <dd>{f.formats.join(", ")}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  );
}
