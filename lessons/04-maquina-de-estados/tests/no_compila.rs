//! Los ejemplos del capítulo que no deben compilar, con su error fijado.

#[path = "../../../curso/src/casos_ui.rs"]
mod casos_ui;

#[test]
fn un_future_async_no_se_sondea_sin_anclarlo() {
    casos_ui::comprobar("tests/ui");
}
