/** Entry of the web app: the converter page, its tool worker, and offline support. */
import "./styles.css";
import { convertPage } from "./pages/convert";
import { registerOffline } from "./offline";
import { ToolBridge } from "./workers/bridge";

const bridge = new ToolBridge();
convertPage(document.getElementById("app")!, bridge);
registerOffline(document.getElementById("offline-state"));
