//! Los ejemplos del capítulo que no deben compilar, con su error fijado.

#[path = "../../../curso/src/casos_ui.rs"]
mod casos_ui;

#[test]
fn spawn_exige_send_y_static() {
    casos_ui::comprobar("tests/ui");
}
