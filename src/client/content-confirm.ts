// Content screens: asks before actions that remove or replace data (remove a class, copy
// or import a whole week, delete or deactivate). Forms carry the question in
// data-confirmar; without JavaScript they simply submit (the server rules still apply).
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirmar;
  if (question && !window.confirm(question)) event.preventDefault();
});
