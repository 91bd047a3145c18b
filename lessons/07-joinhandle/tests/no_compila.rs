//! Los ejemplos del capítulo que no deben compilar, con su error fijado.

#[path = "../../../curso/src/casos_ui.rs"]
mod casos_ui;

#[test]
fn un_joinhandle_no_se_clona() {
    casos_ui::comprobar("tests/ui");
}
