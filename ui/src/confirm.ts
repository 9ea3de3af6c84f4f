import { mount } from "svelte";
import Confirm from "./Confirm.svelte";
import "./app.css";
import "./confirm.css";

const target = document.getElementById("app");
if (!target) throw new Error("confirm.html has no #app element");
export default mount(Confirm, { target });
